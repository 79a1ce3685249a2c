// The suite's report: every cell's statistician's tables (the run report's, over the repeats), the
// baselines and calibration errors side by side by model, results.csv columns, and the page in Chromium.
import { existsSync } from "node:fs";
import { mkdtemp, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { conditionalCsv, resultsCsv } from "../../src/run/bench/csv.js";
import { BENCH_FIGURE_IDS, benchPageOf } from "../../src/report/index.js";
import { ordinal } from "../../src/report/statisticsSection.js";
import { CHROMIUM, expectBenchFiguresDrawn, openReport } from "./browser.js";
import { sampleBench } from "./sampleBench.js";

describe("bench report: what a statistician asks first, per model × task × method × α", () => {
  const s = sampleBench();
  const html = benchPageOf(s);
  const table = (id: string) => new RegExp(`<table[^>]*id="${id}">[\\s\\S]*?</table>`).exec(html)?.[0] ?? "";

  it("aggregates each cell's statistics over its repeats: mean and spread", () => {
    for (const r of s.rows) {
      const st = r.statistics;
      expect(st.repeats).toBe(3);
      // The conformal row of the baselines is the cell's own coverage, repeat by repeat.
      expect(st.baselines[0]!.name).toBe("conformal");
      expect(st.baselines[0]!.coverage.mean).toBeCloseTo(r.coverage.mean, 12);
      expect(st.baselines[0]!.coverage.min).toBeCloseTo(r.coverage.min, 12);
      expect(st.baselines.map((b) => b.name)).toEqual(["conformal", "top-1", "top-k", "cumulative"]);
      expect(st.baselines.find((b) => b.name === "top-k")!.k).toHaveLength(3);
      expect(st.threshold).toMatchObject({ method: r.method, n: r.calibration });
      expect(st.threshold.score.sd).toBeGreaterThan(0); // each repeat calibrates on its own split
      expect(st.coverageByClass.map((x) => x.key)).toEqual(["A", "B", "C", "D"]);
      expect(st.coverageByGroup.map((x) => x.key).sort()).toEqual(["history", "law", "physics"]);
      // Per-class counts add up to the test split, per repeat on average.
      expect(st.coverageByClass.reduce((a, x) => a + x.n, 0)).toBeCloseTo(r.test, 9);
      expect(st.calibration.raw.n).toBe(4 * r.test);
      expect(r.eceRaw).toBe(st.calibration.raw.ece.mean);
    }
    // The sharp model is overconfident: Venn–Abers beliefs are better calibrated than its raw probabilities,
    // and the naive cumulative sets fall short of 1 − α where the conformal ones do not.
    const sharp = s.rows.find((r) => r.model.includes("sharp") && r.method === "LAC" && r.alpha === 0.1)!.statistics;
    expect(sharp.calibration.vennAbers!.ece.mean).toBeLessThan(sharp.calibration.raw.ece.mean);
    const naive = sharp.baselines.find((b) => b.name === "cumulative")!;
    expect(naive.coverage.mean).toBeLessThan(0.85);
    expect(naive.below).toBe(3);
    expect(sharp.baselines[0]!.below).toBe(0);
  });

  it("has each cell's conditional coverage tables, threshold, calibration errors, baselines and warnings", () => {
    s.rows.forEach((r, i) => {
      const byClass = table(`coverage-by-class-${i}`);
      for (const x of r.statistics.coverageByClass) expect(byClass).toContain(`<td>${x.key}</td><td>${x.n.toFixed(1)}</td><td>${(100 * x.coverage.mean).toFixed(1)}% ± ${(100 * x.coverage.sd).toFixed(1)}%`);
      expect(table(`coverage-by-group-${i}`)).toContain("<td>physics</td>");
      for (const x of r.statistics.coverageBySize) expect(table(`coverage-by-size-${i}`)).toContain(`<td>${x.key}</td>`);
      expect(table(`threshold-${i}`)).toMatch(new RegExp(`calibrated threshold q̂</th><td><b>\\d\\.\\d{4} ± \\d\\.\\d{4}</b>: over 3 repeats, each the ${ordinal(r.statistics.threshold.k)} smallest of its ${r.calibration} ${r.method}`));
      const raw = r.statistics.calibration.raw;
      expect(table(`calibration-errors-${i}`)).toContain(`<th>raw probabilities</th><td>${raw.n}</td><td>${raw.ece.mean.toFixed(4)} ± ${raw.ece.sd.toFixed(4)}</td><td>${raw.brier.mean.toFixed(4)} ± `);
      expect(table(`calibration-errors-${i}`)).toContain("<th>Venn–Abers beliefs</th>");
      const b = table(`baselines-${i}`);
      for (const name of ["conformal", "top-1", "top-k (k = ", "cumulative"]) expect(b).toContain(`<td>${name}`);
      expect(html).toMatch(new RegExp(`<ul id="warnings-${i}">|<p id="warnings-${i}" class=ok>`));
    });
  });

  it("puts the baselines and the calibration errors of every model side by side, names the band's level and warns", () => {
    const b = table("bench-baselines-table");
    for (const name of ["conformal", "top-1", "top-k", "cumulative"]) expect(b).toContain(`<th colspan=2>${name}</th>`);
    expect(b.match(/<tr><td>/g)).toHaveLength(s.rows.length);
    const c = table("bench-calibration-errors");
    for (const m of ["sharp.gguf", "flat"]) expect(c).toContain(`<td>${m}</td><td>quiz</td>`);
    expect(html).toContain("finite-sample band (central 99.9%)");
    expect(html).toContain("the central 99.9% of one repeat's coverage under split conformal's beta-binomial law");
    // 300 calibration examples is below the recommended n at α = 0.1; the singletons are under-covered.
    expect(html).toMatch(/<ul id="bench-warnings">[\s\S]*small calibration set: 300 examples[\s\S]*\(3 of 3 repeats\)/);
    expect(html).toMatch(/under-covered set sizes: 1 /);
    for (const id of BENCH_FIGURE_IDS) expect(html).toContain(`<figure id="${id}">`);
  });

  it("writes the same numbers to results.csv and conditional.csv", () => {
    const csv = resultsCsv(s.rows, s.evidence).trim().split("\n");
    const head = csv[0]!.split(",");
    expect(csv).toHaveLength(1 + s.rows.length);
    for (const col of ["threshold_mean", "size_stratified_coverage", "worst_class_coverage", "ece_raw", "brier_raw", "log_loss_raw", "ece_venn_abers", "brier_venn_abers",
      "log_loss_venn_abers", "top1_coverage", "topk_coverage", "topk_mean_size", "cumulative_coverage", "band_level", "warnings"]) expect(head).toContain(col);
    const line = csv[1]!.split(",");
    const at = (c: string) => Number(line[head.indexOf(c)]);
    const st = s.rows[0]!.statistics;
    expect(at("cumulative_coverage")).toBe(st.baselines[3]!.coverage.mean);
    expect(at("log_loss_venn_abers")).toBe(st.calibration.vennAbers!.logLoss.mean);
    const cond = conditionalCsv(s.rows).trim().split("\n");
    expect(cond[0]).toBe("model,task,method,alpha,stratum,key,repeats,test_items_mean,coverage_mean,coverage_sd,coverage_min,coverage_max,mean_size,repeats_under_target");
    expect(cond.filter((l) => l.includes(",class,A,"))).toHaveLength(s.rows.length);
  });

  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)("renders every plot in headless Chromium with no console error", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-bench-browser-"));
    const path = join(dir, "report.html");
    await writeFile(path, html);
    const page = await openReport(path, join(dir, "bench.png"));
    expectBenchFiguresDrawn(page, BENCH_FIGURE_IDS);
    expect((await stat(join(dir, "bench.png"))).size).toBeGreaterThan(10_000);
  }, 120_000);
});

describe("bench charts", () => {
  it("start coverage bars at 0, and plot the model's own throughput, never cache reads", async () => {
    const { benchCoverageChart, benchThroughputChart } = await import("../../src/report/charts/bench.js");
    const s = sampleBench();
    expect((benchCoverageChart(s).yAxis as { min: unknown }).min).toBe(0);
    const cached = { ...s, evidence: s.evidence.map((e, i) => (i === 0 ? { ...e, hits: e.items, computed: 0, seconds: 0.02, itemsPerSecond: e.items / 0.02 } : e)) };
    const series = benchThroughputChart(cached).series as { data: (number | null)[] }[];
    expect(series[0]!.data).toEqual([null]);
    expect(series[1]!.data).toEqual([cached.evidence[1]!.computed / cached.evidence[1]!.seconds]);
  });
});

describe("the baselines table beside the results table", () => {
  it("never marks the conformal row red where the results table judges it by its finite-sample band", () => {
    const s = sampleBench();
    const row = s.rows[0]!;
    const flagged = { ...s, rows: [{ ...row, inBand: row.repeats, statistics: { ...row.statistics, baselines: row.statistics.baselines.map((b) => ({ ...b, below: 1 })) } }] };
    const html = benchPageOf(flagged as typeof s);
    const table = /<table class="wide" id="baselines-0">[\s\S]*?<\/table>/.exec(html)![0];
    const rows = table.split("<tr>").slice(2);
    const conformal = rows.find((r) => r.includes("guaranteed"))!;
    expect(conformal).not.toMatch(/below target/);
    expect(rows.filter((r) => !r.includes("guaranteed")).every((r) => r.includes("below target"))).toBe(true);
    expect(html).toMatch(/\(3\/3 inside\)/);
  });
});

describe("a suite's sets", () => {
  it("are named as calibrated locally, not as the service's", () => {
    const s = sampleBench();
    const rule = s.rows[0]!.statistics.baselines.find((b) => b.name === "conformal")!.rule;
    expect(rule).toMatch(/^the (LAC|APS|RAPS) sets calibrated by the local conformal engine at α = /);
    expect(benchPageOf(s)).not.toMatch(/the service's (LAC|APS|RAPS) sets/);
  });
});

describe("the suite's warnings", () => {
  it("are one line per kind, naming how many cells it concerns, with each cell's text folded under it", () => {
    const s = sampleBench();
    const html = benchPageOf(s);
    const list = /<ul id="bench-warnings">([\s\S]*?)<\/ul>\n/.exec(html)?.[1] ?? "";
    const codes = new Set(s.rows.flatMap((r) => r.statistics.warnings.map((w) => w.code.replace(/:.*$/, ""))));
    const total = s.rows.reduce((a, r) => a + r.statistics.warnings.length, 0);
    expect(codes.size).toBeLessThan(total);
    const kinds = list.match(/<li data-severity=\d><details><summary>/g) ?? [];
    expect(kinds).toHaveLength(codes.size);
    for (const code of codes) {
      const cells = s.rows.filter((r) => r.statistics.warnings.some((w) => w.code.replace(/:.*$/, "") === code)).length;
      expect(list).toContain(`<b>${code.replace(/-/g, " ")}</b> — ${cells} of ${s.rows.length} cells`);
    }
  });
});

describe("the suite's warning kinds", () => {
  it("are ranked most severe first, then by cells, and past five the rest are folded", () => {
    const s = sampleBench();
    const n = s.rows.length;
    expect(n).toBeGreaterThanOrEqual(3);
    // Kinds spread over the cells so that severity and cell counts disagree with the order they are met in.
    const plan: Record<string, number> = {
      "small-test": n, "small-calibration": n - 1, "no-audit": 1, "under-covered-classes": 2, "empty-sets": 1,
      "audit-failed": 1, "below-minimum-n": 2, "small-audit": 1,
    };
    const rows = s.rows.map((r, i) => ({
      ...r,
      statistics: { ...r.statistics, warnings: Object.entries(plan).filter(([, cells]) => i < cells).map(([code]) => ({ code, text: `${code} here`, repeats: 1 })) },
    }));
    const html = benchPageOf({ ...s, rows } as typeof s);
    const list = /<ul id="bench-warnings">([\s\S]*?)<\/ul>\n/.exec(html)![1]!;
    const order = [...list.matchAll(/<li data-severity=\d><details><summary><b>([^<]+)<\/b> — (\d+) of/g)].map((m) => m[1]!.replace(/ /g, "-"));
    expect(order).toEqual(["below-minimum-n", "audit-failed", "under-covered-classes", "empty-sets", "small-test", "small-calibration", "no-audit", "small-audit"]);
    const [open, folded] = list.split('<li class=more>');
    expect((open!.match(/<li data-severity=/g) ?? []).length).toBe(5);
    expect(folded).toMatch(/^<details id="bench-warnings-more"><summary>3 more kind\(s\) of warning/);
    expect((folded!.match(/<li data-severity=/g) ?? []).length).toBe(3);
  });
});
