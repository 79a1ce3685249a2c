// The statistician's section: runStatistics on exact small inputs, and the report tables a reader
// looks for (conditional coverage, baselines, calibration errors, threshold, warnings).
import { describe, expect, it } from "vitest";
import { runStatistics, type AnsweredItem } from "../../src/run/index.js";
import { clopperPearson } from "../../src/conformal/index.js";
import { renderReport, type RunSummary } from "../../src/report/index.js";
import { sampleSummary } from "./sampleSummary.js";

const AUDIT: RunSummary["audit"] = { result: "pass", realizedCoverage: 0.9, ci: [0.8, 0.95], sample: 100, target: 0.9, date: "" };
const NAMES = ["A", "B", "C"];
const item = (probabilities: number[], label: number, size: number, covered: boolean, group?: string): AnsweredItem =>
  ({ probabilities, label, names: NAMES, size, covered, ...(group ? { group } : {}) });

describe("runStatistics", () => {
  const calibration = Array.from({ length: 20 }, (_, i) => ({ probabilities: [0.7, 0.2, 0.1], label: i < 16 ? 0 : i < 19 ? 1 : 2 }));
  const test = [
    item([0.7, 0.2, 0.1], 0, 1, true, "g1"),
    item([0.6, 0.3, 0.1], 1, 2, true, "g1"),
    item([0.5, 0.4, 0.1], 2, 2, false, "g2"),
    item([0.1, 0.1, 0.8], 2, 0, false, "g2"),
  ];
  const st = runStatistics({ type: "set", method: "LAC", alpha: 0.2, seed: "t", calibration, test, pairs: [], audit: AUDIT, profile: { n: 20, minimumN: 4, recommendedN: 400 } });

  it("stratifies coverage by true class, set size and group", () => {
    expect(st.coverageByClass.map((r) => [r.key, r.n, r.covered])).toEqual([["A", 1, 1], ["B", 1, 1], ["C", 2, 0]]);
    expect(st.coverageBySize.map((r) => [r.key, r.n, r.covered])).toEqual([["0", 1, 0], ["1", 1, 1], ["2", 2, 1]]);
    expect(st.coverageByGroup.map((r) => [r.key, r.coverage])).toEqual([["g1", 1], ["g2", 0]]);
    expect(st.coverageByGroup[1]!.ci).toEqual(clopperPearson(0, 2));
    expect(st.rates).toEqual({ n: 4, empty: 0.25, singleton: 0.25, full: 0 });
  });

  it("recomputes the threshold: LAC scores 1 − p, k = ⌈21 · 0.8⌉ = 17", () => {
    // scores: 0.3 ×16, 0.8 ×3, 0.9 ×1 → the 17th smallest is 0.8.
    expect(st.threshold).toMatchObject({ method: "LAC", k: 17, n: 20 });
    expect(st.threshold.score).toBeCloseTo(0.8, 12);
    expect(st.threshold.rule).toMatch(/probability is at least 1 − q̂ = 0\.2000/);
  });

  it("puts the naive sets beside the conformal ones at the same α", () => {
    const by = Object.fromEntries(st.baselines.map((b) => [b.name, b]));
    expect(Object.keys(by)).toEqual(["conformal", "top-1", "top-k", "cumulative"]);
    expect(by.conformal).toMatchObject({ coverage: 0.5, averageSize: 1.25, guaranteed: true });
    expect(by["top-1"]).toMatchObject({ coverage: 0.5, averageSize: 1, guaranteed: false }); // items 1 and 4
    // calibration ranks: 16 × 1, 3 × 2, 1 × 3; ⌈20 · 0.8⌉ = 16 → k = 1
    expect(by["top-k"]).toMatchObject({ k: 1, coverage: 0.5, averageSize: 1 });
    // mass ≥ 0.8: {A,B} (0.9), {A,B} (0.9), {A,B} (0.9), {C} (0.8) → covers items 1, 2, 4
    expect(by.cumulative).toMatchObject({ coverage: 0.75, averageSize: 1.75 });
  });

  it("computes calibration errors of the raw probabilities, and names small samples and under-coverage", () => {
    expect(st.calibration.raw.n).toBe(12);
    expect(st.calibration.vennAbers).toBeNull();
    expect(st.calibration.topLabel).toMatchObject({ n: 4, accuracy: 0.5 });
    expect(st.calibration.topLabel.confidence).toBeCloseTo((0.7 + 0.6 + 0.5 + 0.8) / 4, 12);
    expect(st.warnings.join("\n")).toMatch(/small calibration set: 20 examples \(recommended 400\)/);
    expect(st.warnings.join("\n")).toMatch(/small test split: 4 items/);
    expect(st.warnings.join("\n")).toMatch(/25\.0% of the sets are empty/);
    expect(st.bandLevel).toBe(0.999);
  });

  it("flags no set size 0 as under-covered, names the method of empty sets, and says how many strata were tested", () => {
    const many = [
      ...Array.from({ length: 30 }, () => item([0.4, 0.35, 0.25], 0, 0, false, "g1")),
      ...Array.from({ length: 30 }, () => item([0.7, 0.2, 0.1], 0, 1, true, "g1")),
      ...Array.from({ length: 30 }, () => item([0.7, 0.2, 0.1], 1, 1, false, "g2")),
    ];
    const s3 = runStatistics({ type: "set", method: "APS", alpha: 0.2, seed: "t", calibration, test: many, pairs: [], audit: AUDIT, profile: { n: 20, minimumN: 4, recommendedN: 400 } });
    const text = s3.warnings.join("\n");
    expect(text).not.toMatch(/under-covered set sizes: 0 /);
    expect(text).toMatch(/33\.3% of the sets are empty \(APS left out every option/);
    expect(text).not.toMatch(/LAC/);
    expect(text).toMatch(/under-covered groups: g1 50\.0% of 60, g2 0\.0% of 30 \(95% interval below the target in 2 of 2 groups; each interval is tested on its own, so about 1 in 40 strata falls below by chance alone/);
  });

  it("warns when the calibration set is below the minimum n and when the audit failed", () => {
    const s2 = runStatistics({
      type: "set", method: "LAC", alpha: 0.2, seed: "t", calibration: calibration.slice(0, 3), test, pairs: [],
      audit: { ...AUDIT, result: "fail", realizedCoverage: 0.7 }, profile: { n: 3, minimumN: 4, recommendedN: 400 },
    });
    expect(s2.threshold.score).toBe(Infinity);
    expect(s2.warnings.join("\n")).toMatch(/below the minimum n = 4 .* every set holds every option/);
    expect(s2.warnings.join("\n")).toMatch(/the audit failed: realized coverage 70\.0%/);
  });
});

describe("report: the statistician's tables", () => {
  const s = sampleSummary();
  const html = renderReport(s);
  const table = (id: string) => new RegExp(`<table[^>]*id="${id}">[\\s\\S]*?</table>`).exec(html)?.[0] ?? "";
  const st = s.statistics!;

  it("has the conditional coverage tables: by true class, by set size, by group", () => {
    const byClass = table("coverage-by-class");
    for (const r of st.coverageByClass) expect(byClass).toContain(`<td>${r.key}</td><td>${r.n}</td>`);
    expect(st.coverageByClass.map((r) => r.key)).toEqual(["A", "B", "C", "D"]);
    const bySize = table("coverage-by-size");
    for (const r of st.coverageBySize) expect(bySize).toContain(`<td>${r.key}</td><td>${r.n}</td>`);
    expect(table("coverage-by-group")).toContain("<td>binding</td>");
    expect(html).toMatch(/size-stratified coverage<\/th><td>[\d.]+%/);
  });

  it("has the baselines at the same α with coverage and size", () => {
    const b = table("baselines");
    for (const name of ["conformal", "top-1", "top-k", "cumulative"]) expect(b).toContain(`<td>${name}`);
    const naive = st.baselines.find((x) => x.name === "cumulative")!;
    expect(b).toContain(`${(100 * naive.coverage).toFixed(1)}%`);
    expect(b).toContain(naive.averageSize.toFixed(3));
    // The synthetic model is overconfident: the uncalibrated cumulative sets fall below the target, the conformal ones do not.
    expect(naive.ci[1]).toBeLessThan(0.9);
    expect(st.baselines[0]!.coverage).toBeGreaterThan(0.85);
  });

  it("has the calibration errors of the raw probabilities beside the Venn–Abers beliefs", () => {
    const c = table("calibration-errors");
    const { raw, vennAbers } = st.calibration;
    expect(c).toContain(`<th>raw probabilities</th><td>${raw.n}</td><td>${raw.ece.toFixed(4)}</td><td>${raw.brier.toFixed(4)}</td><td>${raw.logLoss.toFixed(4)}</td>`);
    expect(c).toContain(`<th>Venn–Abers beliefs</th><td>${vennAbers!.n}</td><td>${vennAbers!.ece.toFixed(4)}</td>`);
    // Venn–Abers recalibrates the overconfident probabilities.
    expect(vennAbers!.ece).toBeLessThan(raw.ece);
  });

  it("names the threshold, the band's level and the warnings", () => {
    expect(table("threshold")).toMatch(/calibrated threshold q̂<\/th><td><b>0\.\d{4}<\/b>: the \d+(st|nd|rd|th) smallest of 1000 LAC calibration scores/);
    expect(html).toContain("the central 99.9% of its beta-binomial law");
    expect(html).toMatch(/<p id="warnings" class=ok>No warning\.<\/p>|<ul id="warnings">/);
  });

  it("writes the threshold's rank as an English ordinal (901st, not 901-th)", () => {
    const at = (k: number) => renderReport({ ...s, statistics: { ...st, threshold: { ...st.threshold, k } } } as RunSummary);
    expect(at(901)).toMatch(/the 901st smallest of/);
    expect(at(12)).toMatch(/the 12th smallest of/);
    expect(at(22)).toMatch(/the 22nd smallest of/);
    expect(at(3)).toMatch(/the 3rd smallest of/);
    expect(at(901)).not.toMatch(/\d-th\b/);
  });

  it("renders a summary written before the section existed", () => {
    const { statistics: _, ...old } = s;
    const oldHtml = renderReport(old as RunSummary);
    expect(oldHtml).not.toContain('id="baselines"');
    expect(oldHtml).not.toContain('<figure id="conditional-coverage">');
  });
});

describe("runStatistics on interval answers", () => {
  it("recomputes the ordinal threshold and gives only the conformal and top-1 rows", () => {
    const levels = ["tiny", "small", "medium", "big", "huge"];
    const calibration = Array.from({ length: 40 }, (_, i) => ({ probabilities: [0.1, 0.2, 0.4, 0.2, 0.1], label: i % 5 }));
    const test = [0, 2, 4].map((label) => ({ probabilities: [0.1, 0.2, 0.4, 0.2, 0.1], label, names: levels, size: 3, covered: label === 2 }));
    const st = runStatistics({ type: "interval", method: "ordinal-aps", alpha: 0.2, seed: "t", calibration, test, pairs: [], audit: AUDIT, profile: { n: 40, minimumN: 4, recommendedN: 400 } });
    expect(st.threshold).toMatchObject({ method: "ordinal-aps", n: 40, k: 33 });
    expect(Number.isFinite(st.threshold.score)).toBe(true);
    expect(st.baselines.map((b) => b.name)).toEqual(["conformal", "top-1"]);
    expect(st.coverageByClass.map((r) => [r.key, r.covered])).toEqual([["tiny", 0], ["medium", 1], ["huge", 0]]); // level order
    expect(st.calibration.vennAbers).toBeNull();
    expect(st.warnings.join("\n")).toMatch(/under-covered interval widths|small test split/);
  });
});
