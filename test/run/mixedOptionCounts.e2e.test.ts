// `calibkit run` and `calibkit bench` on items of 3, 4 and 5 options (fixtures/arc-mixed.jsonl, ARC's
// layout), and `calibkit run --from-lm-eval` on lm-eval 0.4 --log_samples files (fixtures/lm-eval): one
// calibration across option counts, coverage inside the finite-sample band, coverage by option count in the
// report, items.jsonl beside it, 0 disagreements with the local engine.
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchSummary, RunSummary } from "../../src/report/index.js";
import { GGUF, MODELS, runCalibkit } from "../cliProcess.js";

const E2E_TIMEOUT_MS = 240_000;
const MC = "fixtures/lm-eval/samples_arc_mixed_2026-11-27T09-30-00.000000.jsonl";

async function outputs(dir: string) {
  const summary = JSON.parse(await readFile(join(dir, "summary.json"), "utf8")) as RunSummary;
  const html = await readFile(join(dir, "report.html"), "utf8");
  const items = (await readFile(join(dir, "items.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  return { summary, html, items };
}

function expectInBand(s: RunSummary): void {
  expect(s.test.coverage).toBeGreaterThanOrEqual(s.test.band[0]);
  expect(s.test.coverage).toBeLessThanOrEqual(s.test.band[1]);
  expect(s.crossCheck.disagreements).toEqual([]);
}

describe("calibkit run --from-lm-eval (no model loaded)", () => {
  it("calibrates lm-eval's log-likelihoods: coverage in band, the source file and the model named, items.jsonl", async () => {
    const out = await mkdtemp(join(tmpdir(), "calibkit-lmeval-run-"));
    const r = await runCalibkit(["run", "--from-lm-eval", MC, "--out", out, "--method", "APS"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/evidence: samples_arc_mixed_.*\.jsonl \(lm-eval task arc_mixed, filter none, task hash matches the results file\), no model loaded/);
    expect(r.stderr).toMatch(/calibration: one across option counts 3, 4, 5/);
    const { summary: s, html, items } = await outputs(out);
    expectInBand(s);
    expect(s.model).toMatchObject({ path: "EleutherAI/pythia-160m", backend: "lm-eval:hf", accessLevel: "L2" });
    expect(s.source).toMatchObject({ lmEvalSamples: resolve(MC), task: "arc_mixed", model: "EleutherAI/pythia-160m", modelArgs: "pretrained=EleutherAI/pythia-160m,dtype=float32" });
    expect(s.source!.lmEvalResults).toMatch(/results_2026-11-27T09-30-00\.000000\.json$/);
    expect(s.profile.setPooling).toBe("pooled");
    expect(s.statistics!.coverageByOptionCount!.map((x) => x.key)).toEqual(["3", "4", "5"]);
    expect(html).toContain("EleutherAI/pythia-160m");
    expect(html).toContain("samples_arc_mixed_2026-11-27T09-30-00.000000.jsonl");
    expect(html).toMatch(/<table[^>]*id="coverage-by-option-count"/);
    // items.jsonl: every document the split used once, by lm-eval's doc_id, with the prompt lm-eval gave the model.
    const used = s.split.calibration + s.split.test + s.split.audit + s.split.monitor;
    expect(used).toBeGreaterThan(350);
    expect(items).toHaveLength(used);
    expect(new Set(items.map((i) => i.id)).size).toBe(used);
    const lines = (await readFile(MC, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { doc_id: number; arguments: { gen_args_0: { arg_0: string } } });
    const byId = new Map(lines.map((l) => [String(l.doc_id), l]));
    for (const item of items) {
      expect(Object.keys(item)).toEqual(expect.arrayContaining(["id", "prompt", "option_probabilities", "label", "answer", "split", "model_answer"]));
      expect(item.prompt).toBe(byId.get(item.id as string)!.arguments.gen_args_0.arg_0);
      const p = item.option_probabilities as Record<string, number>;
      expect(Object.values(p).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      expect(item.model_answer).toBe(Object.keys(p).reduce((a, b) => (p[b]! > p[a]! ? b : a)));
      if (item.split === "test") expect((item.answer as { set: string[] }).set).toBeInstanceOf(Array);
      else expect(item.answer).toBeNull();
    }
    expect(items.filter((i) => i.split === "test")).toHaveLength(s.test.n);
  }, E2E_TIMEOUT_MS);

  it("runs a generate_until file as a gate graded by its own exact_match, the model named, items.jsonl with the answers", async () => {
    const out = await mkdtemp(join(tmpdir(), "calibkit-lmeval-gen-"));
    const file = "fixtures/lm-eval/samples_gsm8k_mini_2026-11-27T09-30-00.000000.jsonl";
    const r = await runCalibkit(["run", "--from-lm-eval", file, "--out", out, "--target", "0.1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/graded by the file's exact_match .* share of the 5 response\(s\) per document/);
    const s = JSON.parse(await readFile(join(out, "summary.json"), "utf8")) as { queryType: string; model: { path: string }; source: { task: string }; section: { inBand: boolean; value: number }; crossCheck: { disagreements: unknown[] } };
    expect(s.queryType).toBe("gate");
    expect(s.model.path).toBe("EleutherAI/pythia-160m");
    expect(s.source.task).toBe("gsm8k_mini");
    expect(s.crossCheck.disagreements).toEqual([]);
    expect(s.section.inBand).toBe(true);
    expect(await readFile(join(out, "report.html"), "utf8")).toContain("samples_gsm8k_mini_2026-11-27T09-30-00.000000.jsonl");
    const lines = (await readFile(file, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { doc_id: number; filtered_resps: string[]; exact_match: number });
    const items = (await readFile(join(out, "items.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(items).toHaveLength(lines.length);
    const byId = new Map(lines.map((l) => [String(l.doc_id), l]));
    for (const item of items) {
      const line = byId.get(item.id as string)!;
      expect(item.model_answer).toBe(line.filtered_resps[0]);
      expect(item.exact_match).toBe(line.exact_match);
      expect(item.label).toBe(line.exact_match >= 0.5 ? "pass" : "fail");
      expect(Object.keys(item.option_probabilities as object).sort()).toEqual(["fail", "pass"]);
    }
  }, E2E_TIMEOUT_MS);
});

describe.skipIf(!existsSync(GGUF))("calibkit run and bench on items of 3, 4 and 5 options (ARC layout)", () => {
  for (const method of ["LAC", "APS"]) {
    it(`run ${method}: one calibration across counts, coverage in band, coverage by option count in the report`, async () => {
      const out = await mkdtemp(join(tmpdir(), "calibkit-arc-mixed-"));
      const r = await runCalibkit(["run", "--model", GGUF, "--dataset", "fixtures/arc-mixed.jsonl", "--method", method, "--out", out, "--quiet"]);
      expect(r.code, r.stderr).toBe(0);
      const { summary: s, html, items } = await outputs(out);
      expectInBand(s);
      expect(s.profile.setPooling).toBe("pooled");
      const byCount = s.statistics!.coverageByOptionCount!;
      expect(byCount.map((x) => x.key)).toEqual(["3", "4", "5"]);
      expect(byCount.reduce((a, x) => a + x.n, 0)).toBe(s.test.n);
      expect(html).toMatch(/<table[^>]*id="coverage-by-option-count"/);
      expect(items).toHaveLength(s.split.calibration + s.split.test + s.split.audit + s.split.monitor);
      expect(new Set(items.map((i) => Object.keys(i.option_probabilities as object).length))).toEqual(new Set([3, 4, 5]));
    }, E2E_TIMEOUT_MS);
  }

  it("run --by-option-count: a Mondrian split, each count's answers named by their group", async () => {
    const out = await mkdtemp(join(tmpdir(), "calibkit-arc-by-count-"));
    const r = await runCalibkit(["run", "--model", GGUF, "--dataset", "fixtures/arc-mixed.jsonl", "--by-option-count", "--out", out, "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
    const { summary: s, items } = await outputs(out);
    expect(s.profile.setPooling).toBe("by_option_count");
    expect(s.crossCheck.disagreements).toEqual([]);
    const groups = new Set(items.filter((i) => i.split === "test").map((i) => (i.answer as { guarantee: { group?: string } }).guarantee.group));
    expect(groups).toEqual(new Set(["3 options", "4 options", "5 options"]));
  }, E2E_TIMEOUT_MS);

  it("bench: the suite over the mixed file (and an lm-eval task) runs, no 'one option count' refusal, every repeat in its band", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-bench-arc-"));
    const r = await runCalibkit(["bench", "examples/bench-arc-mixed.yaml", "--out", dir, "--cache", join(dir, "cache")], { CALIBKIT_MODELS_DIR: MODELS });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(await readFile(join(dir, "summary.json"), "utf8")) as BenchSummary;
    expect(s.rows).toHaveLength(3 * 3);
    // The lm-eval task's cells are the model lm-eval ran (its results file), computed with no model call.
    expect(s.rows.filter((x) => x.task === "arc-mixed-lm-eval").every((x) => x.model === "EleutherAI/pythia-160m")).toBe(true);
    expect(s.evidence.find((e) => e.task === "arc-mixed-lm-eval")).toMatchObject({ model: "EleutherAI/pythia-160m", modelCalls: 0, items: 360 });
    for (const row of s.rows) {
      expect(row.inBand, `${row.task} ${row.method}`).toBe(row.repeats);
      expect(row.statistics.coverageByOptionCount.map((x) => x.key)).toEqual(["3", "4", "5"]);
    }
    expect(await readFile(join(dir, "conditional.csv"), "utf8")).toMatch(/,options,3,/);
  }, E2E_TIMEOUT_MS);
});
