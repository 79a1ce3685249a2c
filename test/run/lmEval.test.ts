// lm-eval 0.4 `--log_samples` files read as evidence (fixtures/lm-eval, written by
// scripts/write-lm-eval-fixtures.py with lm-eval's own hash_string / sanitize_list / argument re-keying).
// Reference: lm-eval's own per-document metrics in the same file — `acc` is argmax of the log-likelihoods and
// `acc_norm` argmax of log-likelihood ÷ len(choice) (lm_eval/api/task.py process_results), so the argmax of our
// probabilities must reproduce both on every document.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { choiceProbabilities, lmEvalChoiceItems, outputTypeOf } from "../../src/run/lmEval/choices.js";
import { readLmEvalRun } from "../../src/run/lmEval/samplesFile.js";

const DIR = "fixtures/lm-eval";
const MC = join(DIR, "samples_arc_mixed_2026-11-27T09-30-00.000000.jsonl");
const GEN = join(DIR, "samples_gsm8k_mini_2026-11-27T09-30-00.000000.jsonl");

const argmax = (xs: readonly number[]) => xs.reduce((b, x, i) => (x > xs[b]! ? i : b), 0);

describe("lm-eval --log_samples files", () => {
  it("reads the task, the samples, the model from the results file, and lm-eval's own task hash", () => {
    const run = readLmEvalRun(MC);
    expect(run.task).toBe("arc_mixed");
    expect(run.samples).toHaveLength(360);
    expect(run.results).toMatchObject({ model: "hf", modelArgs: "pretrained=EleutherAI/pythia-160m,dtype=float32", modelName: "EleutherAI/pythia-160m" });
    // task_hashes in results_*.json is lm-eval's sha256 over doc_hash + prompt_hash + target_hash (evaluation_tracker.py).
    expect(run.taskHash).toBe(run.results!.taskHash);
    expect(outputTypeOf(run)).toBe("multiple_choice");
    expect(outputTypeOf(readLmEvalRun(GEN))).toBe("generate_until");
  });

  it("option probabilities are the softmax of the file's log-likelihoods; their argmax is lm-eval's acc on every document", async () => {
    const run = readLmEvalRun(MC);
    const lines = (await readFile(MC, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { doc_id: number; filtered_resps: [string, string][]; acc: number; acc_norm: number; target: string; arguments: Record<string, { arg_1: string }> });
    const { items, evidence } = lmEvalChoiceItems(run, "none");
    const norm = lmEvalChoiceItems(run, "chars");
    expect(items).toHaveLength(360);
    expect(new Set(items.map((i) => i.names.length))).toEqual(new Set([3, 4, 5]));
    lines.forEach((line, d) => {
      const item = items[d]!;
      expect(item.id).toBe(String(line.doc_id));
      const lls = line.filtered_resps.map(([ll]) => Number(ll));
      const z = lls.reduce((a, x) => a + Math.exp(x), 0);
      const p = item.names.map((n) => evidence.get(item.id)!.option_probabilities![n]!);
      p.forEach((x, j) => expect(x).toBeCloseTo(Math.exp(lls[j]!) / z, 12));
      const gold = item.names.indexOf(item.answer);
      expect(gold).toBe(Number(line.target));
      expect(argmax(p) === gold ? 1 : 0).toBe(line.acc);
      const pn = item.names.map((n) => norm.evidence.get(item.id)!.option_probabilities![n]!);
      expect(argmax(pn) === gold ? 1 : 0).toBe(line.acc_norm);
      // The choice without lm-eval's target delimiter (" "): what acc_norm divides by.
      expect(item.texts[0]).toBe(line.arguments.gen_args_0!.arg_1.slice(1));
    });
  });

  it("acc_norm divides by the choice's length in characters (code points, as Python's len)", () => {
    const p = choiceProbabilities([-4, -2], ["été", "ab"], "chars");
    const s = [-4 / 3, -2 / 2];
    expect(p[0]).toBeCloseTo(Math.exp(s[0]!) / (Math.exp(s[0]!) + Math.exp(s[1]!)), 14);
  });

  it("refuses a malformed line naming the file, the line and the field, and --normalize tokens", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-lmeval-"));
    const lines = (await readFile(MC, "utf8")).trim().split("\n");
    const bad = JSON.parse(lines[1]!) as Record<string, unknown>;
    delete bad.doc_hash;
    const file = join(dir, "samples_arc_mixed_2026-11-27T09-30-00.000000.jsonl");
    await writeFile(file, [lines[0], JSON.stringify(bad)].join("\n") + "\n");
    expect(() => readLmEvalRun(file)).toThrow(/line 2, field "doc_hash"/);
    await writeFile(file, lines[0]! + "\n");
    expect(readLmEvalRun(file).results).toBeNull();
    expect(() => lmEvalChoiceItems(readLmEvalRun(file), "tokens")).toThrow(/--normalize tokens/);
  });
});
