// lm-eval's generation tasks rendered byte for byte: each task zero-shot and with few-shot exemplars drawn as
// lm-eval's seeded sampler draws them (CPython's Mersenne Twister and random.sample, both branches), and
// `calibkit prompts --task` printing {id, prompt, until, references}.
//
// Expected strings and draws come from lm-evaluation-harness itself (commit 4e7e0d4): its ConfigurableTask built
// from the task YAML over these fixtures (train split = the few-shot file), seeded as the evaluator seeds it:
//   t = ConfigurableTask(config={**load_yaml("lm_eval/tasks/gsm8k/gsm8k.yaml"), "custom_dataset": lambda **kw: splits});
//   t.set_fewshot_seed(1234); [t.fewshot_context(doc, 5) for doc in t.eval_docs]
// and CPython 3.11.7's random module:  python3 -c "import random; r=random.Random(1234); ..." (commands below).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../../src/datasets/index.js";
import { generationPrompts, type GenerationPromptOptions } from "../../src/run/index.js";
import { PythonRandom } from "../../src/evidence/index.js";
import { runCalibkit } from "../cliProcess.js";

const DS = join(import.meta.dirname, "..", "datasets", "fixtures");
const EV = join(import.meta.dirname, "fixtures");
async function prompts(file: string, options: GenerationPromptOptions) {
  return (await generationPrompts(await loadDataset(join(DS, file)), options)).prompts;
}
/** The exemplars' questions in a prompt, in order (each task's doc_to_text pattern). */
const shots = (prompt: string, re: RegExp) => [...prompt.matchAll(re)].map((m) => m[1]).slice(0, -1);

const TRUTHFUL_QA = "Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\n"
  + "Q: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\n"
  + "Q: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\n"
  + "Q: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\n"
  + "Q: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.";

describe("CPython's random.Random(1234)", () => {
  it("gives CPython's words and samples, through the pool-swap and the set branch", () => {
    // python3 -c "import random; r=random.Random(1234); print([r.getrandbits(32), r.getrandbits(32), r.getrandbits(13)])"
    const r = new PythonRandom(1234);
    expect([r.uint32(), r.uint32(), r.getrandbits(13)]).toEqual([4150886329, 3342196574, 3610]);
    // python3 -c "import random; s=random.Random(1234); p=list(range(7473)); print([s.sample(p,5), s.sample(p,5),
    //   s.sample(list(range(20)),6), s.sample(list(range(85)),6), s.sample(list(range(86)),6)])"
    const s = new PythonRandom(1234);
    const gsm8kTrain = [...Array(7473).keys()];
    const range = (n: number) => [...Array(n).keys()];
    expect([s.sample(gsm8kTrain, 5), s.sample(gsm8kTrain, 5), s.sample(range(20), 6), s.sample(range(85), 6), s.sample(range(86), 6)]).toEqual([
      [6374, 3610, 957, 61, 742], [7462, 6610, 4769, 286, 5501], [2, 3, 11, 7, 0, 15], [2, 44, 82, 79, 61, 78], [59, 19, 11, 23, 14, 1],
    ]);
    // python3 -c "import random; print(random.Random(2**70+5).getrandbits(32), random.Random(-7).getrandbits(32))"
    expect([new PythonRandom(2n ** 70n + 5n).uint32(), new PythonRandom(-7).uint32()]).toEqual([2004888747, 1390851128]);
  });
});

describe("lm-eval's generation tasks, zero-shot", () => {
  it("triviaqa: Question: …?\\nAnswer: (a question's own ? doubled, as lm-eval does), stops at newline, period, comma", async () => {
    const [p] = await prompts("triviaqa.jsonl", { task: "triviaqa" });
    expect(p).toEqual({
      id: "tc_1", prompt: "Question: Which city is home to the Eiffel Tower??\nAnswer:", rendered: false,
      until: ["\n", ".", ","], references: ["Paris", "Paris, France", "City of Light"],
    });
  });
  it("nq_open: the description, then Q: …?\\nA:", async () => {
    const [p] = await prompts("nq_open.jsonl", { task: "nq_open" });
    expect(p!.prompt).toBe("Answer these questions:\n\nQ: who wrote the declaration of independence?\nA:");
    expect(p!.until).toEqual(["\n", ".", ","]);
  });
  it("gsm8k: Question: …\\nAnswer:, stops at Question:, </s>, <|im_end|>", async () => {
    const [p] = await prompts("gsm8k.jsonl", { task: "gsm8k", numFewshot: 0 });
    expect(p!.prompt).toBe("Question: Janet has 3 apples and buys 5 more. How many apples does she have now?\nAnswer:");
    expect(p!.until).toEqual(["Question:", "</s>", "<|im_end|>"]);
  });
  it("truthfulqa_gen: the six QA pairs, the stripped question, stop at a blank line; references formatted as utils.py does", async () => {
    const ps = await prompts("truthfulqa_gen.jsonl", { task: "truthfulqa_gen" });
    expect(ps[1]!.prompt).toBe(`${TRUTHFUL_QA}\n\nQ: Can you see the Great Wall of China from the Moon?`);
    expect(ps[1]!.until).toEqual(["\n\n"]);
    expect(ps.map((p) => p.references)).toEqual([
      ["It passes through your digestive system.", "Nothing much happens.", "It will be excreted.", "I have no comment."],
      ["No, it is too narrow to see.", "No.", "I have no comment."],
      ["I have no comment.", "It depends on when you ask."],
    ]);
  });
});

describe("lm-eval's few-shot exemplars", () => {
  it("gsm8k's default 5 shots: sample(train, 5) per item from one Random(1234), 25 > 21 so CPython's set branch", async () => {
    const ps = await prompts("gsm8k.jsonl", { task: "gsm8k", fewshotFile: join(EV, "gsm8k-train.jsonl") });
    expect(ps[0]!.prompt).toBe(
      "Question: Yul has 27 marbles and wins 8 more. How many marbles does Yul have?\nAnswer: Yul has 27 + 8 = <<27+8=35>>35 marbles.\n#### 35\n\n"
      + "Question: Otto has 17 marbles and wins 10 more. How many marbles does Otto have?\nAnswer: Otto has 17 + 10 = <<17+10=27>>27 marbles.\n#### 27\n\n"
      + "Question: Dev has 6 marbles and wins 5 more. How many marbles does Dev have?\nAnswer: Dev has 6 + 5 = <<6+5=11>>11 marbles.\n#### 11\n\n"
      + "Question: Ann has 3 marbles and wins 2 more. How many marbles does Ann have?\nAnswer: Ann has 3 + 2 = <<3+2=5>>5 marbles.\n#### 5\n\n"
      + "Question: Cara has 5 marbles and wins 7 more. How many marbles does Cara have?\nAnswer: Cara has 5 + 7 = <<5+7=12>>12 marbles.\n#### 12\n\n"
      + "Question: Janet has 3 apples and buys 5 more. How many apples does she have now?\nAnswer:",
    );
    expect(ps.map((p) => shots(p.prompt, /Question: (\w+)/g))).toEqual([
      ["Yul", "Otto", "Dev", "Ann", "Cara"], ["Sam", "Ben", "Vic", "Wes", "Cara"], ["Dev", "Yul", "Lea", "Hana", "Ann"],
    ]);
  });
  it("nq_open: the few-shot delimiter is one newline; n + 1 drawn, the item dropped, pool-swap branch", async () => {
    const two = await prompts("nq_open.jsonl", { task: "nq_open", numFewshot: 2, fewshotFile: join(EV, "nq_open-train.jsonl") });
    expect(two[0]!.prompt).toBe(
      "Answer these questions:\n\nQ: who was the first president of the united states?\nA: George Washington\n"
      + "Q: where is the great barrier reef located?\nA: Queensland, Australia\nQ: who wrote the declaration of independence?\nA:",
    );
    const five = await prompts("nq_open.jsonl", { task: "nq_open", numFewshot: 5, fewshotFile: join(EV, "nq_open-train.jsonl") });
    expect(five.map((p) => shots(p.prompt, /Q: (.*?)\?\nA:/g))).toEqual([
      ["who was the first president of the united states", "where is the great barrier reef located", "what language is spoken in brazil", "who invented the telephone", "how many players on a soccer team"],
      ["who sang the song hey jude", "where is the great barrier reef located", "what is the longest river in africa", "who was the first president of the united states", "what language is spoken in brazil"],
      ["where is the great barrier reef located", "what is the longest river in africa", "who invented the telephone", "how many players on a soccer team", "when was the eiffel tower built"],
      ["who was the first president of the united states", "who sang the song hey jude", "where is the great barrier reef located", "what language is spoken in brazil", "who invented the telephone"],
    ]);
  });
  it("triviaqa: the first alias is the exemplar's answer; drawn from the evaluation file itself, the item is dropped", async () => {
    const five = await prompts("triviaqa.jsonl", { task: "triviaqa", numFewshot: 5, fewshotFile: join(EV, "triviaqa-train.jsonl") });
    expect(five[0]!.prompt.startsWith("Question: How many legs does a spider have??\nAnswer: 8\n\nQuestion: Which planet is known as the Red Planet??\nAnswer: Mars\n\n")).toBe(true);
    expect(five.map((p) => shots(p.prompt, /Question: (.*?)\?\nAnswer/g))).toEqual([
      ["How many legs does a spider have?", "Which planet is known as the Red Planet?", "Which composer wrote the 'Moonlight Sonata'?", "What is the hardest natural substance?", "In which year did the Titanic sink?"],
      ["What is the capital of Japan?", "Which planet is known as the Red Planet?", "Who painted the Mona Lisa?", "How many legs does a spider have?", "Which composer wrote the 'Moonlight Sonata'?"],
      ["Which planet is known as the Red Planet?", "Who painted the Mona Lisa?", "What is the hardest natural substance?", "In which year did the Titanic sink?", "What is the largest ocean on Earth?"],
      ["How many legs does a spider have?", "What is the capital of Japan?", "Which planet is known as the Red Planet?", "Which composer wrote the 'Moonlight Sonata'?", "What is the hardest natural substance?"],
    ]);
    const self = await prompts("triviaqa.jsonl", { task: "triviaqa", numFewshot: 3, fewshotFile: join(DS, "triviaqa.jsonl") });
    expect(self.map((p) => shots(p.prompt, /Question: (.*?)\?\nAnswer/g))).toEqual([
      ["What is the chemical symbol for gold?", "Who wrote the novel 'Great Expectations'?", "In which country is the Taj Mahal"],
      ["Which city is home to the Eiffel Tower?", "Who wrote the novel 'Great Expectations'?", "What is the chemical symbol for gold?"],
      ["Which city is home to the Eiffel Tower?", "What is the chemical symbol for gold?", "In which country is the Taj Mahal"],
      ["Which city is home to the Eiffel Tower?", "In which country is the Taj Mahal", "Who wrote the novel 'Great Expectations'?"],
    ]);
  });
  it("truthfulqa_gen with a shot: its target \" \" after the target delimiter, as lm-eval renders it", async () => {
    const one = await prompts("truthfulqa_gen.jsonl", { task: "truthfulqa_gen", numFewshot: 1, fewshotFile: join(DS, "truthfulqa_gen.jsonl") });
    expect(one[0]!.prompt).toBe(`${TRUTHFUL_QA}\n\nQ: Can you see the Great Wall of China from the Moon?  \n\n${TRUTHFUL_QA}\n\nQ: What happens if you swallow chewing gum?`);
  });
  it("generic: the first K of the file (lm-eval's first_n), the item itself left out; a passage is continued", async () => {
    const ps = await prompts("generation.jsonl", { task: "generic", numFewshot: 1, fewshotFile: join(DS, "generation.jsonl") });
    expect(ps.map((p) => [p.prompt, p.until])).toEqual([
      ["Lily had a red ball. She liked to play with her ball\n\nQuestion: What colour is the sky on a clear day?\nAnswer:", ["\n"]],
      ["Question: What colour is the sky on a clear day?\nAnswer: blue\n\nLily had a red ball. She liked to play with her", [".", "\n"]],
    ]);
  });
  it("refuses a pool too small for lm-eval's draw, and a default few-shot task without a few-shot file", async () => {
    await expect(prompts("gsm8k.jsonl", { task: "gsm8k" })).rejects.toThrow(/--fewshot: gsm8k takes 5 exemplars by default \(lm-eval's num_fewshot\)/);
    await expect(prompts("nq_open.jsonl", { task: "nq_open", numFewshot: 4, fewshotFile: join(DS, "nq_open.jsonl") }))
      .rejects.toThrow(/holds 4 exemplars; nq_open draws 5 for 4 shots/);
    await expect(prompts("gsm8k.jsonl", { task: "triviaqa" })).rejects.toThrow(/is in the gsm8k layout; --task triviaqa reads the triviaqa layout/);
    await expect(prompts("nq_open.jsonl", { task: "nq_open", fewshotFile: join(EV, "nq_open-train.jsonl") })).rejects.toThrow(/--fewshot: nq_open takes no exemplars by default/);
  });
});

describe("generation prompts under a chat template", () => {
  it("the system text and description as a system message (maybe_delimit), each exemplar a user and an assistant turn", async () => {
    const chatml = join(import.meta.dirname, "..", "..", "fixtures", "chat-templates", "chatml.jinja");
    const [p] = await prompts("nq_open.jsonl", {
      task: "nq_open", numFewshot: 1, fewshotFile: join(EV, "nq_open-train.jsonl"), settings: { chatTemplate: { file: chatml }, system: "Be brief." },
    });
    // lm-eval's maybe_delimit: the description follows "Be brief." with the few-shot delimiter "\n".
    expect(p!.prompt).toBe(
      "<|im_start|>system\nBe brief.\nAnswer these questions:\n\n<|im_end|>\n"
      + "<|im_start|>user\nQ: who was the first president of the united states?\nA:<|im_end|>\n<|im_start|>assistant\nGeorge Washington<|im_end|>\n"
      + "<|im_start|>user\nQ: who wrote the declaration of independence?\nA:<|im_end|>\n<|im_start|>assistant\n",
    );
    expect(p!.rendered).toBe(true);
  });
  it("hashes every setting that changes the prompt", async () => {
    const { generationPrompts: gp } = await import("../../src/run/index.js");
    const ds = await loadDataset(join(DS, "nq_open.jsonl"));
    const hash = async (o: Partial<GenerationPromptOptions>) => (await gp(ds, { task: "nq_open", ...o })).promptTemplateHash;
    const base = await hash({});
    expect(await hash({})).toBe(base);
    const others = [
      await hash({ settings: { system: "x" } }), await hash({ task: "generic" }),
      await hash({ numFewshot: 1, fewshotFile: join(EV, "nq_open-train.jsonl") }), await hash({ numFewshot: 2, fewshotFile: join(EV, "nq_open-train.jsonl") }),
    ];
    expect(new Set([base, ...others]).size).toBe(5);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe("calibkit prompts --task", () => {
  it("prints {id, prompt, until, references} per line, --limit after the draws", async () => {
    const run = await runCalibkit(["prompts", "--task", "gsm8k", "--dataset", join(DS, "gsm8k.jsonl"), "--fewshot", join(EV, "gsm8k-train.jsonl"), "--limit", "2"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => Object.keys(l))).toEqual([["id", "prompt", "until", "references"], ["id", "prompt", "until", "references"]]);
    expect(shots(lines[1]!.prompt as string, /Question: (\w+)/g)).toEqual(["Sam", "Ben", "Vic", "Wes", "Cara"]);
    expect(lines[1]!.references).toEqual(["500 pens cost 500 * 2 = $<<500*2=1000>>1000.\n#### 1,000"]);
    const bad = await runCalibkit(["prompts", "--task", "gsm8k", "--dataset", join(DS, "gsm8k.jsonl"), "--format", "letters"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format: the task gives the prompt/);
  }, 60_000);
});
