// `calibkit prompts` on MMLU items, against strings written by hand from lm-evaluation-harness's task
// definitions: `mmlu` (letters) and `mmlu_continuation` (cloze), zero-shot and 5-shot, and under a chat
// template. Real processes, as a user runs them.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const FIX = join(import.meta.dirname, "fixtures");
const DEV = join(FIX, "mmlu-dev.jsonl");
const TEST = join(FIX, "mmlu-test.jsonl");
const CHATML = join(import.meta.dirname, "../../fixtures/chat-templates/chatml.jinja");

interface Run { status: number | null; stdout: string; stderr: string }
const cli = (...args: string[]): Promise<Run> => new Promise((resolve, reject) => {
  const child = spawn(process.execPath, ["bin/calibkit.js", "prompts", ...args], {
    env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" }, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000,
  });
  let stdout = "", stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  child.once("error", reject);
  child.once("close", (status) => resolve({ status, stdout, stderr }));
});
const lines = (r: Run) => {
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; prompt: string; continuations: string[]; label: string });
};

// lm-eval's mmlu: description "The following are multiple choice questions (with answers) about {subject}.\n\n"
// (underscores as spaces), doc_to_text "{{question.strip()}}\nA. {{choices[0]}}\n…\nAnswer:", choices " A".." D".
const LETTERS_DESC = "The following are multiple choice questions (with answers) about abstract algebra.\n\n";
const Q1 = "Find the degree for the given field extension Q(sqrt(2), sqrt(3), sqrt(18)) over Q.";
const LETTERS_Q1 = `${Q1}\nA. 0\nB. 4\nC. 2\nD. 6\nAnswer:`;
const LETTERS_SHOTS = [
  "Find all c in Z_3 such that Z_3[x]/(x^2 + c) is a field.\nA. 0\nB. 1\nC. 2\nD. 3\nAnswer: B",
  "Statement 1 | If aH is an element of a factor group, then |aH| divides |a|. Statement 2 | If H and K are subgroups of G then HK is a subgroup of G.\nA. True, True\nB. False, False\nC. True, False\nD. False, True\nAnswer: B",
  "Statement 1 | Every element of a group generates a cyclic subgroup of the group. Statement 2 | The symmetric group S_10 has 10 elements.\nA. True, True\nB. False, False\nC. True, False\nD. False, True\nAnswer: C",
  "Statement 1| Every function from a finite set onto itself must be one to one. Statement 2 | Every subgroup of an abelian group is abelian.\nA. True, True\nB. False, False\nC. True, False\nD. False, True\nAnswer: A",
  "Find the characteristic of the ring 2Z.\nA. 0\nB. 3\nC. 12\nD. 30\nAnswer: A",
];
// lm-eval's mmlu_continuation: description "The following are questions (with answers) about {subject}.\n\n",
// doc_to_text "Question: {{question.strip()}}\nAnswer:", choices " " + each choice's text.
const CLOZE_DESC = "The following are questions (with answers) about abstract algebra.\n\n";
const CLOZE_SHOTS = [
  "Question: Find all c in Z_3 such that Z_3[x]/(x^2 + c) is a field.\nAnswer: 1",
  "Question: Statement 1 | If aH is an element of a factor group, then |aH| divides |a|. Statement 2 | If H and K are subgroups of G then HK is a subgroup of G.\nAnswer: False, False",
  "Question: Statement 1 | Every element of a group generates a cyclic subgroup of the group. Statement 2 | The symmetric group S_10 has 10 elements.\nAnswer: True, False",
  "Question: Statement 1| Every function from a finite set onto itself must be one to one. Statement 2 | Every subgroup of an abelian group is abelian.\nAnswer: True, True",
  "Question: Find the characteristic of the ring 2Z.\nAnswer: 0",
];

const runs = {
  letters0: cli("--dataset", TEST, "--format", "letters"),
  letters5: cli("--dataset", TEST, "--format", "letters", "--num-fewshot", "5", "--fewshot", DEV, "--limit", "1"),
  cloze0: cli("--dataset", TEST, "--format", "cloze"),
  cloze5: cli("--dataset", TEST, "--format", "cloze", "--num-fewshot", "5", "--fewshot", DEV, "--limit", "1"),
  chat: cli("--dataset", TEST, "--format", "letters", "--num-fewshot", "2", "--fewshot", DEV, "--chat-template", CHATML, "--system", "Answer with one letter.", "--limit", "1"),
  autoNoModel: cli("--dataset", TEST, "--chat-template", "auto"),
  badFormat: cli("--dataset", TEST, "--format", "mcq"),
};

describe("calibkit prompts: lm-eval's MMLU formats byte for byte", () => {
  it("letters, zero-shot (question stripped, subject's underscores as spaces)", async () => {
    const [a, b] = lines(await runs.letters0);
    expect(a).toEqual({ id: a!.id, prompt: LETTERS_DESC + LETTERS_Q1, continuations: [" A", " B", " C", " D"], label: "B" });
    expect(b!.prompt).toBe("The following are multiple choice questions (with answers) about astronomy.\n\n"
      + "Which planet in the solar system is closest to the Sun?\nA. Venus\nB. Mercury\nC. Mars\nD. Earth\nAnswer:");
  });

  it("letters, 5-shot: description, exemplars with their gold letter joined by blank lines, then the item", async () => {
    const [a] = lines(await runs.letters5);
    expect(a!.prompt).toBe(LETTERS_DESC + LETTERS_SHOTS.join("\n\n") + "\n\n" + LETTERS_Q1);
    expect(a!.continuations).toEqual([" A", " B", " C", " D"]);
  });

  it("cloze, zero-shot: Question/Answer, each choice's text after one space", async () => {
    const [a, b] = lines(await runs.cloze0);
    expect(a!.prompt).toBe(`${CLOZE_DESC}Question: ${Q1}\nAnswer:`);
    expect(a!.continuations).toEqual([" 0", " 4", " 2", " 6"]);
    expect(b!.prompt).toBe("The following are questions (with answers) about astronomy.\n\nQuestion: Which planet in the solar system is closest to the Sun?\nAnswer:");
    expect(b!.continuations).toEqual([" Venus", " Mercury", " Mars", " Earth"]);
  });

  it("cloze, 5-shot", async () => {
    const [a] = lines(await runs.cloze5);
    expect(a!.prompt).toBe(CLOZE_DESC + CLOZE_SHOTS.join("\n\n") + "\n\n" + `Question: ${Q1}\nAnswer:`);
  });

  it("under a chat template: system text and description as the system turn, exemplars as turns, letters with no leading space", async () => {
    const [a] = lines(await runs.chat);
    expect(a!.prompt).toBe(
      `<|im_start|>system\nAnswer with one letter.\n\n${LETTERS_DESC}<|im_end|>\n`
      + `<|im_start|>user\n${LETTERS_SHOTS[0]!.slice(0, -2)}<|im_end|>\n<|im_start|>assistant\nB<|im_end|>\n`
      + `<|im_start|>user\n${LETTERS_SHOTS[1]!.slice(0, -2)}<|im_end|>\n<|im_start|>assistant\nB<|im_end|>\n`
      + `<|im_start|>user\n${LETTERS_Q1}<|im_end|>\n<|im_start|>assistant\n`,
    );
    expect(a!.continuations).toEqual(["A", "B", "C", "D"]);
  });

  it("refuses --chat-template auto without --model, and an unknown format, naming the flag", async () => {
    const auto = await runs.autoNoModel;
    expect(auto.status).toBe(2);
    expect(auto.stderr).toMatch(/--chat-template: auto needs --model/);
    const bad = await runs.badFormat;
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--format: must be letters, cloze, instruct or auto, not "mcq"/);
  });
});
