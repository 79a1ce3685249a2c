import { describe, expect, it } from "vitest";
import {
  calibrateBelief,
  calibrateOptionBeliefs,
  calibratedFromJSON,
  calibratedToJSON,
  mulberry32,
  predictBelief,
  predictOptionBeliefs,
  vennAbersReference,
  type CalibratedBelief,
} from "../../src/conformal/index.js";
import { classificationPool, gaussian } from "./synthetic.js";

describe("Venn–Abers fast fit", () => {
  it("equals refitting PAV with the test point added, ties and all (1,200 random small cases)", () => {
    const rng = mulberry32(21);
    for (let trial = 0; trial < 1200; trial++) {
      const n = Math.floor(rng() * 14);
      const grid = 1 + Math.floor(rng() * 6);
      const s = Array.from({ length: n }, () => Math.floor(rng() * grid) / grid);
      const y = s.map((x) => (rng() < 0.1 + 0.8 * x ? 1 : 0));
      const cal = calibrateBelief(s, y);
      for (const t of [...s, -1, 2, Math.floor(rng() * 2 * grid) / (2 * grid)]) {
        const a = predictBelief(cal, t);
        const b = vennAbersReference(s, y, t);
        expect(a.p0).toBeCloseTo(b.p0, 12);
        expect(a.p1).toBeCloseTo(b.p1, 12);
        expect(a.p0).toBeLessThanOrEqual(a.p1);
      }
    }
  });
  it("no calibration data: [0, 1], merged 1/2", () => {
    expect(predictBelief(calibrateBelief([], []), 0.3)).toEqual({ p0: 0, p1: 1, probability: 0.5 });
  });
  it("round-trips through JSON", () => {
    const cal = calibrateBelief([0.1, 0.5, 0.9, 0.5], [0, 1, 1, 0]);
    const back = calibratedFromJSON<CalibratedBelief>(calibratedToJSON(cal));
    expect(predictBelief(back, 0.5)).toEqual(predictBelief(cal, 0.5));
  });
  it("the probability of the true label's fit is calibrated: E[Y − p_Y | bin] = 0 over 1,000 splits", () => {
    const rng = mulberry32(22);
    const TRIALS = 1000;
    const N = 100;
    const M = 40;
    const bins = 5;
    // Raw score is badly miscalibrated: P(Y = 1 | s) = s³.
    const sums = Array.from({ length: bins }, () => new Float64Array(TRIALS));
    const counts = Array.from({ length: bins }, () => new Float64Array(TRIALS));
    const rawSums = new Float64Array(TRIALS);
    for (let t = 0; t < TRIALS; t++) {
      const s = Array.from({ length: N }, () => rng());
      const y = s.map((x) => (rng() < x ** 3 ? 1 : 0));
      const cal = calibrateBelief(s, y);
      for (let j = 0; j < M; j++) {
        const x = rng();
        const yt = rng() < x ** 3 ? 1 : 0;
        const p = predictBelief(cal, x);
        const pY = yt ? p.p1 : p.p0;
        const b = Math.min(bins - 1, Math.floor(pY * bins));
        sums[b]![t]! += yt - pY;
        counts[b]![t]!++;
        rawSums[t]! += yt - x;
      }
    }
    for (let b = 0; b < bins; b++) {
      const total = counts[b]!.reduce((a, c) => a + c, 0);
      if (total < 200) continue;
      const mean = sums[b]!.reduce((a, c) => a + c, 0) / TRIALS;
      const se = Math.sqrt(sums[b]!.reduce((a, c) => a + (c - mean) ** 2, 0) / (TRIALS - 1) / TRIALS);
      expect(Math.abs(mean), `bin ${b}: mean (Y − p_Y) per split ${mean} (se ${se})`).toBeLessThanOrEqual(3 * se + 1e-12);
    }
    // Negative control: the raw score fails the same check by a wide margin.
    const rawMean = rawSums.reduce((a, c) => a + c, 0) / TRIALS;
    const rawSe = Math.sqrt(rawSums.reduce((a, c) => a + (c - rawMean) ** 2, 0) / (TRIALS - 1) / TRIALS);
    expect(Math.abs(rawMean)).toBeGreaterThan(10 * rawSe);
  });
  it("per-option (one-vs-rest) beliefs bracket the option's frequency", () => {
    const rng = mulberry32(23);
    const pool = classificationPool(3000, 4, rng);
    const cal = calibrateOptionBeliefs({ probabilities: { data: pool.data, width: 4 }, labels: pool.labels });
    const out = predictOptionBeliefs(cal, [0.7, 0.1, 0.1, 0.1]);
    expect(out).toHaveLength(4);
    expect(out[0]!.p0).toBeLessThanOrEqual(out[0]!.p1);
    expect(out[0]!.probability).toBeGreaterThan(0.6);
    expect(out[0]!.probability).toBeLessThan(0.8);
    void gaussian;
  });
});

describe("Venn–Abers fit: O(n) after the sort (walk steps counted at n, 2n, 4n)", () => {
  it("takes at most 2 walk steps per distinct score and label, never the searched fallback, at every size", async () => {
    const { counters } = await import("../../src/conformal/beliefs/vennAbersFit.js");
    const { mulberry32 } = await import("../../src/conformal/index.js");
    const rng = mulberry32(99);
    // Labels that flip often make many pooled blocks; a sorted, alternating pattern makes long hulls.
    const shapes: [string, (n: number) => { s: Float64Array; y: Uint8Array }][] = [
      ["calibrated", (n) => { const s = Float64Array.from({ length: n }, () => rng()); return { s, y: Uint8Array.from(s, (x) => +(rng() < x)) }; }],
      ["alternating", (n) => ({ s: Float64Array.from({ length: n }, (_, i) => i / n), y: Uint8Array.from({ length: n }, (_, i) => i % 2) })],
      ["convex staircase", (n) => ({ s: Float64Array.from({ length: n }, (_, i) => i), y: Uint8Array.from({ length: n }, (_, i) => +(Math.sqrt(i) % 1 < 0.5)) })],
    ];
    for (const [name, make] of shapes) {
      const perPoint: number[] = [];
      for (const n of [5_000, 10_000, 20_000]) {
        const { s, y } = make(n);
        counters.steps = 0;
        counters.fallbacks = 0;
        const cal = calibrateBelief(s, y);
        expect(counters.fallbacks, name).toBe(0);
        perPoint.push(counters.steps / cal.xs.length);
        expect(counters.steps, `${name} n=${n}`).toBeLessThanOrEqual(4 * (cal.xs.length + 1));
      }
      // Steps per point do not grow with n (an O(n log n) bridge phase would add a constant per doubling).
      expect(perPoint[2]!, name).toBeLessThanOrEqual(perPoint[0]! + 0.05);
    }
  });
});
