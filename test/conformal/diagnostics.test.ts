// The run's diagnostics: calibration metrics, baseline sets and conditional coverage, on exact small
// cases and statistically on seeded draws (a calibrated model and an overconfident one).
import { describe, expect, it } from "vitest";
import {
  brierScore, calibrateSet, clopperPearson, coverageByStratum, cumulativeMassSet, expectedCalibrationError, labelRank,
  logLoss, mulberry32, predictSet, smallestTopK, topKSet, worstStratumCoverage,
} from "../../src/conformal/index.js";

describe("calibration metrics", () => {
  it("compute ECE, Brier and log-loss exactly on small cases", () => {
    const p = Float64Array.from([0.05, 0.15, 0.95, 0.85]);
    const y = Uint8Array.from([0, 1, 1, 1]);
    // bins: [0,0.1) holds 0.05/0, [0.1,0.2) 0.15/1, [0.8,0.9) 0.85/1, [0.9,1] 0.95/1
    expect(expectedCalibrationError(p, y)).toBeCloseTo((0.05 + 0.85 + 0.15 + 0.05) / 4, 12);
    expect(brierScore(p, y)).toBeCloseTo((0.05 ** 2 + 0.85 ** 2 + 0.05 ** 2 + 0.15 ** 2) / 4, 12);
    expect(logLoss(p, y)).toBeCloseTo(-(Math.log(0.95) + Math.log(0.15) + Math.log(0.95) + Math.log(0.85)) / 4, 12);
    expect(logLoss([0], [1])).toBeCloseTo(-Math.log(1e-15), 6); // clipped, finite
    expect(Number.isNaN(brierScore([], []))).toBe(true);
    expect(() => brierScore([0.5], [2])).toThrow(/outcomes\[0\] must be 0 or 1/);
    expect(() => expectedCalibrationError([1.5], [1])).toThrow(/probabilities\[0\] must lie in \[0, 1\]/);
  });

  it("tell a calibrated forecaster from an overconfident one (ECE, Brier, log-loss)", () => {
    const rng = mulberry32(3);
    const n = 20_000;
    const p = new Float64Array(n);
    const sharp = new Float64Array(n);
    const y = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      p[i] = rng();
      y[i] = rng() < p[i]! ? 1 : 0;
      sharp[i] = Math.min(1, Math.max(0, 0.5 + (p[i]! - 0.5) * 1.8)); // pushed towards 0 and 1
    }
    // Calibrated: ECE is sampling noise only (≈ √(bins/n)); Brier of a uniform calibrated forecast is 1/6.
    expect(expectedCalibrationError(p, y)).toBeLessThan(0.02);
    expect(brierScore(p, y)).toBeCloseTo(1 / 6, 2);
    expect(expectedCalibrationError(sharp, y)).toBeGreaterThan(0.1);
    expect(brierScore(sharp, y)).toBeGreaterThan(brierScore(p, y));
    expect(logLoss(sharp, y)).toBeGreaterThan(logLoss(p, y));
  });
});

describe("baseline sets", () => {
  it("rank, top-k and cumulative-mass sets on small rows", () => {
    expect(labelRank([0.1, 0.6, 0.3], 2)).toBe(2);
    expect(labelRank([0.5, 0.5], 1)).toBe(2); // ties by option order
    expect(topKSet([0.1, 0.6, 0.3], 2)).toEqual([1, 2]);
    expect(cumulativeMassSet([0.1, 0.6, 0.3], 0.9)).toEqual([1, 2]);
    expect(cumulativeMassSet([0.1, 0.6, 0.3], 0.91)).toEqual([0, 1, 2]);
    expect(cumulativeMassSet([0.7, 0.2, 0.1], 0.7)).toEqual([0]);
  });

  it("picks the smallest k covering ⌈n(1−α)⌉ calibration ranks, exactly at the edge", () => {
    // 10 ranks, α = 0.3: need ⌈10 · 0.7⌉ = 7 (floating point says 7.000000000000001 → 8).
    const ranks = [1, 1, 1, 1, 1, 1, 2, 3, 3, 4];
    expect(smallestTopK(ranks, 0.3)).toBe(2);
    expect(smallestTopK(ranks, 0.2)).toBe(3);
    expect(smallestTopK(ranks, 0.05)).toBe(4);
    expect(smallestTopK([], 0.1)).toBe(0);
  });

  it("on an overconfident model, naive cumulative sets under-cover where conformal sets hold (seeded draws)", () => {
    const rng = mulberry32(17);
    const K = 5;
    const alpha = 0.1;
    const draw = () => {
      const raw = Array.from({ length: K }, () => rng() ** 2);
      const s = raw.reduce((a, b) => a + b, 0);
      const truth = raw.map((x) => x / s);
      let u = rng();
      let label = 0;
      while (label < K - 1 && u > truth[label]!) u -= truth[label++]!;
      // The model reports a sharpened distribution (temperature 0.4): overconfident.
      const sharp = truth.map((q) => q ** 2.5);
      const t = sharp.reduce((a, b) => a + b, 0);
      return { truth, p: sharp.map((q) => q / t), label };
    };
    const cal = Array.from({ length: 2000 }, draw);
    const test = Array.from({ length: 4000 }, draw);
    const m = test.length;
    const naive = test.filter((x) => cumulativeMassSet(x.p, 1 - alpha).includes(x.label)).length / m;
    const calibratedNaive = test.filter((x) => cumulativeMassSet(x.truth, 1 - alpha).includes(x.label)).length / m;
    const cs = calibrateSet({ probabilities: cal.map((c) => Float64Array.from(c.p)), labels: cal.map((c) => c.label) }, { method: "LAC", alpha });
    const conformal = test.filter((x) => predictSet(cs, { probabilities: x.p }).indices.includes(x.label)).length / m;
    const k = smallestTopK(cal.map((c) => labelRank(c.p, c.label)), alpha);
    const topk = test.filter((x) => topKSet(x.p, k).includes(x.label)).length / m;
    expect(clopperPearson(Math.round(naive * m), m, 0.999)[1]).toBeLessThan(1 - alpha); // surely under-covers
    expect(calibratedNaive).toBeGreaterThan(1 - alpha - 0.02); // with the true probabilities it would not
    expect(conformal).toBeGreaterThan(1 - alpha - 0.02);
    expect(topk).toBeGreaterThan(1 - alpha - 0.02); // top-k is chosen on calibration data: it holds too, with larger sets
  });
});

describe("stratified coverage", () => {
  it("groups by key with counts, mean size and Clopper–Pearson intervals; sizes sort numerically", () => {
    const rows = coverageByStratum(["2", "10", "2", "1"], [1, 0, 1, 1], [2, 10, 2, 1]);
    expect(rows.map((r) => [r.key, r.n, r.covered, r.averageSize])).toEqual([["1", 1, 1, 1], ["2", 2, 2, 2], ["10", 1, 0, 10]]);
    expect(rows[1]!.ci).toEqual(clopperPearson(2, 2));
    expect(worstStratumCoverage(rows)).toBe(0);
    expect(worstStratumCoverage(rows, 2)).toBe(1);
    expect(() => coverageByStratum(["a"], [1, 0], [1])).toThrow(/one entry per item/);
  });
});
