// `calibkit bench` end to end on the documented example suite: stories260K and tiny-gpt2 × two bundled
// tasks × LAC and APS × 2 alphas × 3 repeats; the report opened in headless Chromium; a second run
// served from the cache without a model call.
import { existsSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BENCH_FIGURE_IDS, type BenchSummary } from "../../src/report/index.js";
import { MODELS, runCalibkit } from "../cliProcess.js";
import { CHROMIUM, expectBenchFiguresDrawn, openReport } from "../report/browser.js";

const HAVE_MODELS = existsSync(join(MODELS, "stories260K.gguf")) && existsSync(join(MODELS, "tiny-gpt2"));
const calibkit = (args: string[]) => runCalibkit(args, { CALIBKIT_MODELS_DIR: MODELS });

describe.skipIf(!HAVE_MODELS)("calibkit bench", () => {
  it("runs the example suite, writes report, summary and CSV; Chromium renders every plot with no console error", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-bench-"));
    const args = ["bench", "examples/bench-tiny.yaml", "--cache", join(dir, "cache")];
    const r = await calibkit([...args, "--out", join(dir, "a")]);
    expect(r.code, r.stderr).toBe(0);
    // One progress line per model.
    for (const m of ["stories260K.gguf", "tiny-gpt2"]) expect(r.stderr).toMatch(new RegExp(`evidence ${m}: \\d+/\\d+ in`));
    const s = JSON.parse(await readFile(join(dir, "a", "summary.json"), "utf8")) as BenchSummary;
    expect(s.rows).toHaveLength(2 * 2 * 2 * 2);
    expect(new Set(s.rows.map((x) => x.method))).toEqual(new Set(["LAC", "APS"]));
    for (const row of s.rows) {
      expect(row.coverage.perRepeat).toHaveLength(3);
      // Each repeat's coverage lies in its finite-sample band (the central 99.9% of its beta-binomial law).
      expect(row.inBand, `${row.model} ${row.task} ${row.method} ${row.alpha}`).toBe(3);
      expect(row.meanSetSize).toBeGreaterThan(0);
      expect(row.singletonRate + row.emptyRate).toBeLessThanOrEqual(1);
      expect(row.eceRaw).toBeGreaterThanOrEqual(0);
      expect(row.eceVennAbers).toBeGreaterThanOrEqual(0);
      // The run report's statistics over the repeats: conditional coverage, threshold, calibration errors, baselines.
      const st = row.statistics;
      expect(st.repeats).toBe(3);
      expect(st.coverageByClass.length).toBeGreaterThan(1);
      expect(st.coverageBySize.length).toBeGreaterThan(0);
      expect(st.threshold.n).toBe(row.calibration);
      expect(st.baselines.map((b) => b.name)).toEqual(["conformal", "top-1", "top-k", "cumulative"]);
      expect(st.baselines[0]!.coverage.mean).toBeCloseTo(row.coverage.mean, 12);
      for (const f of [st.calibration.raw, st.calibration.vennAbers!]) for (const v of [f.ece, f.brier, f.logLoss]) expect(v.mean).toBeGreaterThanOrEqual(0);
    }
    expect(s.evidence.every((e) => e.computed === e.items && e.modelCalls > 0 && e.itemsPerSecond > 0 && e.tokensPerSecond! > 0)).toBe(true);
    const csv = (await readFile(join(dir, "a", "results.csv"), "utf8")).trim().split("\n");
    expect(csv).toHaveLength(1 + s.rows.length);
    expect(csv[0]).toMatch(/^model,task,query_type,method,alpha,repeats,.*coverage_mean,coverage_sd.*threshold_mean.*ece_raw.*brier_venn_abers.*top1_coverage.*topk_coverage.*cumulative_coverage/);
    const conditional = (await readFile(join(dir, "a", "conditional.csv"), "utf8")).trim().split("\n");
    expect(conditional.length).toBeGreaterThan(s.rows.length * 3);
    const html = await readFile(join(dir, "a", "report.html"), "utf8");
    for (const id of ["bench-baselines-table", "bench-calibration-errors", ...s.rows.flatMap((_, i) => ["coverage-by-class", "coverage-by-size", "threshold", "calibration-errors", "baselines"].map((t) => `${t}-${i}`))]) {
      expect(html, id).toMatch(new RegExp(`<table[^>]*id="${id}">`));
    }

    if (existsSync(CHROMIUM) || process.env.CI) {
      const shot = join(dir, "bench.png");
      const page = await openReport(join(dir, "a", "report.html"), shot);
      expectBenchFiguresDrawn(page, BENCH_FIGURE_IDS);
      expect((await stat(shot)).size).toBeGreaterThan(10_000);
      writeFileSync(join(dir, "screenshot-path.txt"), shot);
    }

    // Started again (as after a kill): everything from the cache, no model call, the same numbers.
    const again = await calibkit([...args, "--out", join(dir, "b"), "--quiet"]);
    expect(again.code, again.stderr).toBe(0);
    const s2 = JSON.parse(await readFile(join(dir, "b", "summary.json"), "utf8")) as BenchSummary;
    expect(s2.evidence.every((e) => e.hits === e.items && e.modelCalls === 0)).toBe(true);
    expect(s2.rows.map(({ seconds: _s, ...x }) => x)).toEqual(s.rows.map(({ seconds: _s, ...x }) => x));
  }, 300_000);

  it("refuses a bad suite before loading any model, naming the field", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-bench-bad-"));
    const file = join(dir, "suite.yaml");
    writeFileSync(file, "models: [stories260K.gguf]\ntasks:\n  - name: t\n    dataset: /nonexistent.jsonl\nmethods: [LAC]\nalphas: [0.1]\n");
    const r = await calibkit(["bench", file, "--out", join(dir, "o")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tasks\[0\]\.dataset: no file at \/nonexistent\.jsonl/);
    writeFileSync(file, "models: [stories260K.gguf]\ntasks: []\nmethods: [LAC]\nalphas: [1.5]\n");
    expect((await calibkit(["bench", file])).stderr).toMatch(/alphas\[0\]: must be a number strictly between 0 and 1, got 1.5/);
    writeFileSync(file, "models: [stories260K.gguf\n");
    expect((await calibkit(["bench", file])).stderr).toMatch(/suite\.yaml: line \d+/);
    const missing = await calibkit(["bench", join(dir, "absent.yaml")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no suite file at ${join(dir, "absent.yaml")}`);
  }, 60_000);
});
