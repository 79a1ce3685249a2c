// Each published generation layout parsed from a small fixture written in that layout (test/datasets/fixtures),
// detected from its first record as multiple-choice layouts are, and malformed records rejected by line and field.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importJsonLines, loadDataset, type GenerationItem } from "../../src/datasets/index.js";

const FIX = join(import.meta.dirname, "fixtures");
const lines = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n");
async function gen(file: string, options = {}): Promise<{ layout: string | undefined; items: GenerationItem[] }> {
  const ds = await loadDataset(join(FIX, file), options);
  expect(ds.kind).toBe("generation");
  return { layout: ds.layout, items: ds.items as GenerationItem[] };
}

describe("generation layouts", () => {
  it("TriviaQA rc.nocontext: question_id, the aliases as references (lm-eval's doc_to_target)", async () => {
    const { layout, items } = await gen("triviaqa.jsonl");
    expect(layout).toBe("triviaqa");
    expect(items[0]).toEqual({ id: "tc_1", question: "Which city is home to the Eiffel Tower?", context: "", references: ["Paris", "Paris, France", "City of Light"] });
    expect(items.map((i) => i.id)).toEqual(["tc_1", "tc_2", "tc_3", "tc_4"]);
    expect(items[1]!.question).toBe("In which country is the Taj Mahal"); // kept as published, no "?" added here
  });
  it("NQ open: the answer list, ids from the file and line", async () => {
    const { layout, items } = await gen("nq_open.jsonl");
    expect(layout).toBe("nq_open");
    expect(items[1]).toEqual({ id: "nq_open:2", question: "when did the first man land on the moon", context: "", references: ["1969", "July 20, 1969"] });
  });
  it("GSM8K main: the worked answer ending in #### N is the reference", async () => {
    const { layout, items } = await gen("gsm8k.jsonl");
    expect(layout).toBe("gsm8k");
    expect(items[1]!.references).toEqual(["500 pens cost 500 * 2 = $<<500*2=1000>>1000.\n#### 1,000"]);
  });
  it("TruthfulQA generation: correct and incorrect answers as published, the category as group", async () => {
    const { layout, items } = await gen("truthfulqa_gen.jsonl");
    expect(layout).toBe("truthfulqa_gen");
    expect(items[0]).toEqual({
      id: "truthfulqa_gen:1", question: "What happens if you swallow chewing gum?", context: "", group: "Misconceptions",
      references: ["It passes through your digestive system", "Nothing much happens", "It will be excreted"],
      incorrect: ["It stays in your stomach for seven years", "You will die."],
    });
    expect(items[1]!.question).toBe("  Can you see the Great Wall of China from the Moon?  ");
  });
  it("generic: calibkit's own records (references), and any file through a field mapping", async () => {
    const own = await gen("generation.jsonl");
    expect(own.layout).toBeUndefined();
    expect(own.items[1]).toEqual({ id: "own-2", question: "", context: "Lily had a red ball. She liked to play with her", references: ["ball", "red ball"] });
    const mapped = await gen("generic-mapped.jsonl", { fields: { question: "prompt", context: "passage", references: "golds", id: "qid", group: "meta.topic" } });
    expect(mapped.items).toEqual([
      { id: "g1", question: "Who wrote Hamlet?", context: "Hamlet is a tragedy written by William Shakespeare around 1600.", references: ["William Shakespeare", "Shakespeare"], group: "literature" },
      { id: "g2", question: "What is the boiling point of water at sea level?", context: "", references: ["100 degrees Celsius"], group: "science" },
    ]);
  });
  it("reads the Hub's Parquet files (nested answer struct, list columns) into the same items", async () => {
    for (const name of ["triviaqa", "nq_open"]) {
      const parquet = await gen(`${name}.parquet`);
      expect(parquet.layout).toBe(name);
      expect(parquet.items).toEqual((await gen(`${name}.jsonl`)).items); // ids <stem>:<line> and <stem>:<row> agree
    }
  });
  it("a layout may be named instead of detected", async () => {
    const { items } = await gen("nq_open.jsonl", { layout: "nq_open" });
    expect(items).toHaveLength(4);
    await expect(loadDataset(join(FIX, "gsm8k.jsonl"), { layout: "triviaqa" })).rejects.toThrow(/gsm8k\.jsonl, line 1, field "answer\.value": is missing \(read as the triviaqa layout/);
  });
  it("names the line and field of a bad record", () => {
    const gsm = { question: "q?", answer: "it is 4\n#### 4" };
    expect(() => importJsonLines(lines(gsm, { question: "q2?", answer: "no final number ####" }), "g.jsonl")).toThrow(/g\.jsonl, line 2, field "answer": must end in "#### N"/);
    const nq = { question: "who", answer: ["x"] };
    expect(() => importJsonLines(lines(nq, { question: "who else", answer: [] }), "n.jsonl")).toThrow(/n\.jsonl, line 2, field "answer": holds no answers/);
    expect(() => importJsonLines(lines(nq, { question: "who else", answer: ["a", 3] }), "n.jsonl")).toThrow(/line 2, field "answer\[1\]": must be a string, got number/);
    const tq = { question: "q", best_answer: "b", correct_answers: ["b"], incorrect_answers: ["c"] };
    expect(() => importJsonLines(lines(tq, { ...tq, incorrect_answers: [] }), "t.jsonl")).toThrow(/line 2, field "incorrect_answers": holds no answers/);
    expect(() => importJsonLines(lines({ question: "q", references: [] }), "o.jsonl")).toThrow(/o\.jsonl, line 1, field "references": holds no reference answers/);
    expect(() => importJsonLines(lines({ references: ["x"] }), "o.jsonl")).toThrow(/line 1, field "question": is missing \(read as generation records\)/);
  });
});
