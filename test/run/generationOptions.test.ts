// The options of free-form runs (docs/generation.md): --task turns the run free-form and defaults the dataset to
// the bundled generation fixture; the sampling flags and --scorer are checked and named when wrong; the library
// takes the same options; `calibkit prompts --task --statistics` shows the judge and P(True) prompts, and
// `--grader judge` the judge grader's prompt per reference.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parseRunOptions, RunOptionError } from "../../src/cli/run/options.js";
import { DEFAULT_GENERATION_DATASET, resolveCalibrationOptions } from "../../src/run/index.js";
import { itemsJsonl } from "../../src/run/itemsLog.js";
import { runCalibkit } from "../cliProcess.js";

const failure = (argv: string[]) => {
  try {
    parseRunOptions(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(RunOptionError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${argv.join(" ")}`);
};

describe("free-form run options", () => {
  it("--task reads the bundled fixture with K = 5 and MaximumSequenceProbability unless told otherwise", () => {
    const o = parseRunOptions(["--task", "generic"]);
    expect(o.dataset).toBe(DEFAULT_GENERATION_DATASET);
    expect(o.generation).toEqual({ task: "generic", samples: 5, scorer: "MaximumSequenceProbability", temperature: 1, topP: 1, topK: 0, sampleSeed: 0, maxTokens: 16, grader: "task", claimScore: "frequency" });
    const p = parseRunOptions(["--task", "generic", "--samples", "8", "--scorer", "SemanticEntropy", "--temperature", "0.7", "--top-p", "0.9", "--top-k", "40", "--max-tokens", "32"]);
    expect(p.generation).toMatchObject({ samples: 8, scorer: "SemanticEntropy", temperature: 0.7, topP: 0.9, topK: 40, maxTokens: 32 });
    expect(parseRunOptions([]).generation).toBeUndefined();
  });

  it("names the option at fault", () => {
    expect(failure(["--samples", "3"])).toMatch(/samples.*--task/);
    expect(failure(["--task", "squad"])).toMatch(/task.*triviaqa/);
    expect(failure(["--task", "generic", "--scorer", "Entropy"])).toMatch(/scorer.*MaximumSequenceProbability/);
    expect(failure(["--task", "generic", "--samples", "-1"])).toMatch(/samples/);
    expect(failure(["--task", "generic", "--top-p", "0"])).toMatch(/top-p/);
    expect(failure(["--task", "generic", "--temperature", "x"])).toMatch(/temperature/);
    expect(failure(["--task", "generic", "--grader", "gpt"])).toMatch(/--grader/);
    expect(failure(["--task", "generic", "--judge-model", "x.gguf"])).toMatch(/--judge-model.*--grader judge/);
    expect(failure(["--task", "generic", "--grader", "judge", "--judge-model", "x.gguf", "--judge-stage", "big"])).toMatch(/--judge-stage.*not both/);
    expect(failure(["--task", "generic", "--claim-score", "votes"])).toMatch(/--claim-score/);
    expect(failure(["--task", "generic", "--scorers", "SemanticEntropy,Nope"])).toMatch(/--scorers: "Nope" is not a scorer/);
    expect(failure(["--grader", "judge"])).toMatch(/grader.*--task/);
  });

  it("takes the judge grader, the claim score and the scorers computed", () => {
    const o = parseRunOptions(["--task", "generic", "--grader", "judge", "--judge-stage", "big", "--claim-score", "p_true", "--scorers", "SemanticEntropy, NumSemSets"]);
    expect(o.generation).toMatchObject({ grader: "judge", judgeStage: "big", claimScore: "p_true", scorers: ["SemanticEntropy", "NumSemSets"] });
    expect(parseRunOptions(["--task", "generic", "--scorers", "all"]).generation!.scorers).toBe("all");
  });

  it("the library defaults a free-form run's dataset the same way", () => {
    expect(resolveCalibrationOptions({ generation: { task: "generic" } }).dataset).toBe(DEFAULT_GENERATION_DATASET);
    expect(() => resolveCalibrationOptions({ generation: { task: "generic", scorer: "nope" } })).toThrow(/generation\.scorer/);
  });

  it("--task refuses a dataset of another kind before any model loads", async () => {
    const { runCalibration } = await import("../../src/run/index.js");
    await expect(runCalibration({ generation: { task: "generic" }, dataset: "fixtures/story-cloze.jsonl", model: "/nowhere.gguf" })).rejects.toThrow(/--task|task.*multiple_choice/);
  });

  it("items.jsonl writes one object per line, NaN and infinities as null", () => {
    const text = itemsJsonl([{ id: "a", split: "test", prompt: "p", scores: { X: NaN, Y: 1.5, Z: -Infinity }, answer: null }]);
    expect(text).toBe('{"id":"a","split":"test","prompt":"p","scores":{"X":null,"Y":1.5,"Z":null},"answer":null}\n');
  });

  it("calibkit prompts --task --statistics shows the judge and P(True) prompts of every item", async () => {
    const r = await runCalibkit(["prompts", "--task", "generic", "--dataset", DEFAULT_GENERATION_DATASET, "--limit", "2", "--statistics"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const first = JSON.parse((await readFile(DEFAULT_GENERATION_DATASET, "utf8")).split("\n")[0]!);
    expect(lines).toHaveLength(2);
    expect(lines[0].statistics.p_true).toEqual({
      prompt: `Question: ${first.context}\n Possible answer:{a}\n Is the possible answer:\n (A) True\n (B) False\n The possible answer is:`,
      continuations: ["True"],
    });
    expect(lines[0].statistics.semantic_matrix_entail).toEqual({
      prompt: `${first.context}\n\nAnswer A: {a}\nAnswer B: {b}\nIf answer A is right, is answer B right too? Reply yes or no.\nReply:`,
      continuations: [" yes", " no"],
    });
  });
});

describe("calibkit prompts --grader judge", () => {
  it("shows the judge grader's prompt for each reference, {answer} standing for the answer", async () => {
    const r = await runCalibkit(["prompts", "--task", "generic", "--dataset", DEFAULT_GENERATION_DATASET, "--limit", "1", "--grader", "judge"]);
    expect(r.code, r.stderr).toBe(0);
    const [line] = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const first = JSON.parse((await readFile(DEFAULT_GENERATION_DATASET, "utf8")).split("\n")[0]!);
    expect(line.statistics).toBeUndefined();
    expect(line.judge).toEqual(line.references.map((reference: string) => ({
      id: "answer-match/v1", reference, continuations: [" yes", " no"],
      prompt: `${first.context}\n\nReference answer: ${reference}\nProposed answer: {answer}\nDoes the proposed answer mean the same as the reference answer? Reply yes or no.\nReply:`,
    })));
    const bad = await runCalibkit(["prompts", "--task", "generic", "--dataset", DEFAULT_GENERATION_DATASET, "--grader", "gpt"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--grader: must be task or judge/);
  });
});
