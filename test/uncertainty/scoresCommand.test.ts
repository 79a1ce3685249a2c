// `calibkit scores` as a user runs it: the reference statistics in, lm-polygraph's values out (reference/values.ts),
// malformed lines named by line and field, missing statistics named in one warning, and the --metrics table.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCalibkit } from "../cliProcess.js";
import { SCORERS, predictionRejectionArea, rocAuc } from "../../src/uncertainty/index.js";
import { REFERENCE as R } from "./reference/values.js";
import { expectClose, num } from "./reference/numbers.js";

const dir = mkdtempSync(join(tmpdir(), "calibkit-scores-"));
const file = (name: string, lines: unknown[]) => {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
};
const parseOut = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: unknown; scores: Record<string, number | string> });

describe("calibkit scores", () => {
  it("prints lm-polygraph's values for the reference statistics (−∞ written as \"-Infinity\")", async () => {
    // The reference writes numbers as strings; on the wire they are numbers, −∞ the string "-Infinity".
    const wire = (v: unknown): unknown => Array.isArray(v) ? v.map(wire) : typeof v === "string" && /^-?(\d|Infinity)/.test(v) && v !== "-Infinity" ? Number(v) : v;
    const line = { id: "ref", ...Object.fromEntries(Object.entries(R.inputs).map(([k, v]) => [k, k.endsWith("texts") ? v : wire(v)])) };
    const r = await runCalibkit(["scores", file("ref.jsonl", [line])]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const [out] = parseOut(r.stdout);
    expect(out!.id).toBe("ref");
    for (const s of SCORERS) expectClose(num(String(out!.scores[s.name])), R.scores[s.name as keyof typeof R.scores], s.name);
  });

  it("names the line and the field of a malformed line, and exits 1", async () => {
    const r = await runCalibkit(["scores", file("bad.jsonl", [
      { id: 1, greedy_log_likelihoods: [-0.5] },
      "",
      { id: 2, greedy_log_likelihoods: [-0.5, "minus infinity"] },
    ])]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 3: `greedy_log_likelihoods\.1` must be a number/);
    const typo = await runCalibkit(["scores", file("typo.jsonl", [{ id: 1, sample_text: ["a"] }])]);
    expect(typo.stderr).toMatch(/line 1: `sample_text` is not a known field/);
    const many = await runCalibkit(["scores", file("many.jsonl", [{ id: 1, entropy: ["a", "b", "c", "d", "e"] }])]);
    expect(many.stderr).toMatch(/`entropy\.0` must be .*`entropy\.2` must be [^;]*; and 2 more\n$/);
    const k = await runCalibkit(["scores", file("k.jsonl", [{ id: 1, sample_texts: ["a", "b"], sample_log_probs: [-1] }])]);
    expect(k.stderr).toMatch(/line 1: `sample_log_probs` has 1 samples where `sample_texts` has 2/);
    const json = await runCalibkit(["scores", file("json.jsonl", ["{\"id\": 1,"])]);
    expect(json.stderr).toMatch(/line 1: not valid JSON/);
  });

  it("names every scorer whose statistics are missing in one warning, and scores the rest", async () => {
    const r = await runCalibkit(["scores", file("partial.jsonl", [
      { id: 1, greedy_log_likelihoods: [-0.5, "-Infinity"] },
      { id: 2, greedy_log_likelihoods: [], sample_texts: ["x"] },
    ]), "--scorers", "Perplexity,MaximumSequenceProbability,SemanticEntropy"]);
    expect(r.code).toBe(0);
    const out = parseOut(r.stdout);
    expect(out[0]!.scores).toEqual({ Perplexity: "Infinity", MaximumSequenceProbability: "Infinity" });
    expect(out[1]!.scores).toEqual({ Perplexity: "NaN", MaximumSequenceProbability: 0 });
    const warnings = r.stderr.trim().split("\n");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/warning: .*SemanticEntropy \(no sample_log_probs .*semantic_classes_entail \(or semantic_matrix_entail and semantic_matrix_contra\); every line\)/);
  });

  it("--metrics prints the table of every metric per scorer over the lines with `correct`", async () => {
    const lines = [];
    const values: number[] = [];
    const correct: number[] = [];
    for (let i = 0; i < 60; i++) {
      const ll = [-0.05 * ((i * 7) % 13) - 0.01, -0.03 * ((i * 5) % 11)];
      const ok = (i * 37) % 10 < 6 - ((i * 7) % 13) / 4;
      lines.push({ id: i, greedy_log_likelihoods: ll, correct: ok });
      values.push(-(ll[0]! + ll[1]!));
      correct.push(ok ? 1 : 0);
    }
    const r = await runCalibkit(["scores", file("metrics.jsonl", lines), "--metrics", "--scorers", "MaximumSequenceProbability,Perplexity"]);
    expect(r.code).toBe(0);
    expect(parseOut(r.stdout)).toHaveLength(60);
    const table = r.stderr.trim().split("\n");
    expect(table[0]).toMatch(/^scorer\s+level\s+n\s+roc-auc\s+pr-auc\s+prr\s+prr_normalized\s+rcc-auc\s+ece\s+ece_venn_abers\s+spearmanr\s+kendalltau$/);
    const msp = table.find((l) => l.startsWith("MaximumSequenceProbability"))!.split(/\s+/);
    expect(msp.slice(1, 3)).toEqual(["L1", "60"]);
    expect(msp[3]).toBe(rocAuc(values, correct.map((c) => 1 - c)).toFixed(4));
    expect(msp[5]).toBe(predictionRejectionArea(values, correct).toFixed(4));
    expect(msp.slice(3).every((c) => /^-?\d\.\d{4}$/.test(c))).toBe(true);
    expect(table.some((l) => l.startsWith("Perplexity"))).toBe(true);
  });

  it("--scorers list prints each scorer with its level, statistics and confidence map", async () => {
    const r = await runCalibkit(["scores", "--scorers", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^EigenScore\s+L4\s+sample_embeddings\s+confidence 1\/\(1\+exp\(u\)\)$/m);
    expect(r.stdout.trim().split("\n")).toHaveLength(SCORERS.length);
  });
});
