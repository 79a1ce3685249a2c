// Numeric CQR calibration takes max(lo − y, y − hi) without a branch (interval.ts's maxOfFinite). It must be
// Math.max bit for bit, signed zeros included, so calibrations equal the per-example score cqrScore's.
import { describe, expect, it } from "vitest";
import { calibrateNumericIntervalBatch, cqrScore, mulberry32 } from "../../src/conformal/index.js";
import { maxOfFinite } from "../../src/conformal/intervals/numericCqr.js";

const SPECIAL = [-0, 0, 1, -1, 0.5, -0.5, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 1e308, -1e308, 2.5, 0.1 + 0.2, 0.3];

describe("maxOfFinite", () => {
  it("is Math.max on every pair of special finite values, −0 and +0 told apart", () => {
    for (const a of SPECIAL) for (const b of SPECIAL) expect(Object.is(maxOfFinite(a, b), Math.max(a, b))).toBe(true);
  });
});

describe("numeric CQR calibration", () => {
  it("keeps the scores cqrScore gives, zeros and ties included (20 random sets)", () => {
    const rng = mulberry32(3);
    const pick = () => (rng() < 0.2 ? SPECIAL[Math.floor(rng() * 8)]! : Math.round((rng() * 4 - 2) * 8) / 8);
    for (let c = 0; c < 20; c++) {
      const n = 50 + c * 30;
      const lower = Float64Array.from({ length: n }, pick);
      const upper = Float64Array.from({ length: n }, pick);
      const y = Float64Array.from({ length: n }, pick);
      const cal = calibrateNumericIntervalBatch({ lower, upper, y }, { alpha: 0.1 });
      const want = Array.from({ length: n }, (_, i) => cqrScore(lower[i]!, upper[i]!, y[i]!)).sort((a, b) => a - b || (Object.is(a, -0) ? -1 : Object.is(b, -0) ? 1 : 0));
      const got = Array.from(cal.strata.get("")!.scores);
      expect(got.length).toBe(n);
      got.forEach((s, i) => expect(Object.is(s, want[i])).toBe(true));
    }
  });
});

describe("numeric CQR calibration at sizes where the threshold is selected in the scoring pass", () => {
  const byOrder = (a: number, b: number) => a - b || (Object.is(a, -0) ? (Object.is(b, -0) ? 0 : -1) : Object.is(b, -0) ? 1 : 0);
  it("has the threshold of conformalQuantile on the sorted scores, ties and signed zeros included", async () => {
    const { conformalQuantile } = await import("../../src/conformal/index.js");
    const rng = mulberry32(21);
    for (const [n, alpha, tie] of [[4096, 0.1, 0], [5000, 0.05, 8], [20_001, 0.5, 2], [9999, 0.9, 0], [12_000, 0.001, 64], [4096, 1 / 4097, 0]] as const) {
      // Ties: values on a grid of 1/tie; with tie = 2 most scores are 0 or −0 (y on the bounds).
      const v = () => (tie ? Math.round((rng() * 2 - 1) * tie) / tie : rng() * 2 - 1);
      const lower = Float64Array.from({ length: n }, v);
      const upper = Float64Array.from(lower, (x) => x + (tie === 2 ? 0 : Math.abs(v())));
      const y = Float64Array.from({ length: n }, (_, i) => (tie === 2 && i % 3 === 0 ? lower[i]! : v()));
      const cal = calibrateNumericIntervalBatch({ lower, upper, y }, { alpha });
      const sorted = Float64Array.from({ length: n }, (_, i) => cqrScore(lower[i]!, upper[i]!, y[i]!)).sort();
      const st = cal.strata.get("")!;
      expect(Object.is(st.threshold, conformalQuantile(sorted, alpha))).toBe(true);
      expect(Array.from(st.scores).sort(byOrder).every((s, i) => Object.is(s, sorted[i]))).toBe(true);
    }
  });

  it("names the first non-finite row, whether or not the sample saw one", () => {
    const n = 5000;
    const lower = new Float64Array(n).fill(-1);
    const upper = new Float64Array(n).fill(1);
    const y = new Float64Array(n);
    for (const [first, second] of [[0, 4000], [7, 52], [52, 4999], [4999, 4999]] as const) {
      const yy = y.slice();
      const up = upper.slice();
      yy[first] = NaN;
      up[second] = Infinity;
      const field = first === second ? `upper[${second}]` : `y[${first}]`;
      if (first === second) yy[first] = 0;
      expect(() => calibrateNumericIntervalBatch({ lower, upper: up, y: yy }, { alpha: 0.1 })).toThrow(expect.objectContaining({ field }));
    }
  });
});

describe("numeric CQR prediction", () => {
  it("gives every row the threshold and n of its stratum, also when they are written on first read (no groups)", async () => {
    const { predictNumericIntervalBatch, predictNumericInterval, encodeGroups } = await import("../../src/conformal/index.js");
    const rng = mulberry32(8);
    const n = 300;
    const lower = Float64Array.from({ length: n }, () => rng() - 1);
    const upper = Float64Array.from(lower, (x) => x + rng());
    const y = Float64Array.from({ length: n }, () => rng() * 2 - 1);
    const groups = Array.from({ length: n }, () => (rng() < 0.5 ? "a" : "b"));
    const test = { lower: Float64Array.of(-1, 0, 0.5), upper: Float64Array.of(1, 0.25, 2) };
    for (const grouped of [false, true]) {
      const cal = calibrateNumericIntervalBatch({ lower, upper, y, ...(grouped ? { groups: encodeGroups(groups) } : {}) }, { alpha: 0.2 });
      const testGroups = ["b", "a", "b"];
      const got = predictNumericIntervalBatch(cal, { ...test, ...(grouped ? { groups: encodeGroups(testGroups) } : {}) });
      const want = [0, 1, 2].map((i) => predictNumericInterval(cal, { lower: test.lower[i]!, upper: test.upper[i]!, ...(grouped ? { group: testGroups[i]! } : {}) }));
      expect(Object.keys(got)).toEqual(["lower", "upper", "threshold", "n"]);
      expect(got.threshold).toBe(got.threshold);
      const plain = { ...got };
      expect(Array.from(plain.lower)).toEqual(want.map((w) => w.lower));
      expect(Array.from(plain.upper)).toEqual(want.map((w) => w.upper));
      expect(Array.from(plain.threshold)).toEqual(want.map((w) => w.threshold));
      expect(Array.from(plain.n)).toEqual(want.map((w) => w.n));
      expect(got.threshold).toBeInstanceOf(Float64Array);
      expect(got.n).toBeInstanceOf(Int32Array);
    }
  });
});

describe("numeric CQR into the caller's columns", () => {
  it("writes the same scores, threshold and bounds as new columns would, grouped or not, at sizes on both sides of the sampled selection", async () => {
    const { predictNumericIntervalBatch, encodeGroups } = await import("../../src/conformal/index.js");
    const rng = mulberry32(41);
    for (const n of [200, 6000]) {
      const v = () => Math.round((rng() * 2 - 1) * 16) / 16; // ties and signed zeros
      const lower = Float64Array.from({ length: n }, v);
      const upper = Float64Array.from(lower, (x) => x + Math.round(rng() * 8) / 16);
      const y = Float64Array.from({ length: n }, v);
      const test = { lower: Float64Array.from({ length: n }, v), upper: Float64Array.from({ length: n }, v) };
      const groups = Array.from({ length: n }, () => (rng() < 0.3 ? "a" : "b"));
      for (const grouped of [false, true]) {
        const g = grouped ? { groups: encodeGroups(groups) } : {};
        const fresh = calibrateNumericIntervalBatch({ lower, upper, y, ...g }, { alpha: 0.1 });
        const scores = new Float64Array(n).fill(7); // stale contents from an earlier use
        const given = calibrateNumericIntervalBatch({ lower, upper, y, ...g }, { alpha: 0.1, scores });
        for (const [key, st] of fresh.strata) {
          expect(Object.is(given.strata.get(key)!.threshold, st.threshold)).toBe(true);
          const a = given.strata.get(key)!.scores;
          st.scores.forEach((s, i) => expect(Object.is(a[i], s)).toBe(true));
        }
        const into = { lower: new Float64Array(n).fill(NaN), upper: new Float64Array(n).fill(NaN) };
        const want = predictNumericIntervalBatch(fresh, { ...test, ...g });
        const got = predictNumericIntervalBatch(given, { ...test, ...g }, { into });
        expect(got.lower).toBe(into.lower);
        expect(got.upper).toBe(into.upper);
        want.lower.forEach((x, i) => expect(Object.is(got.lower[i], x)).toBe(true));
        want.upper.forEach((x, i) => expect(Object.is(got.upper[i], x)).toBe(true));
        expect(Array.from(got.threshold)).toEqual(Array.from(want.threshold));
      }
    }
  });

  it("updates the bounds in place when the batch's own columns are given", async () => {
    const { predictNumericIntervalBatch } = await import("../../src/conformal/index.js");
    const cal = calibrateNumericIntervalBatch({ lower: Float64Array.of(0, 0, 0), upper: Float64Array.of(1, 1, 1), y: Float64Array.of(1.5, -0.25, 0.5) }, { alpha: 0.25 });
    const lower = Float64Array.of(-1, 2);
    const upper = Float64Array.of(1, 3);
    const want = predictNumericIntervalBatch(cal, { lower: lower.slice(), upper: upper.slice() });
    predictNumericIntervalBatch(cal, { lower, upper }, { into: { lower, upper } });
    expect(Array.from(lower)).toEqual(Array.from(want.lower));
    expect(Array.from(upper)).toEqual(Array.from(want.upper));
  });

  it("refuses a column of the wrong length or type, naming it", async () => {
    const { predictNumericIntervalBatch } = await import("../../src/conformal/index.js");
    const batch = { lower: Float64Array.of(0, 0), upper: Float64Array.of(1, 1), y: Float64Array.of(0.5, 2) };
    expect(() => calibrateNumericIntervalBatch(batch, { alpha: 0.1, scores: new Float64Array(3) })).toThrow(expect.objectContaining({ field: "scores" }));
    const cal = calibrateNumericIntervalBatch(batch, { alpha: 0.1 });
    expect(() => predictNumericIntervalBatch(cal, batch, { into: { lower: new Float64Array(2), upper: new Float64Array(1) } })).toThrow(expect.objectContaining({ field: "into.upper" }));
    expect(() => predictNumericIntervalBatch(cal, batch, { into: { lower: [0, 0] as unknown as Float64Array, upper: new Float64Array(2) } })).toThrow(expect.objectContaining({ field: "into.lower" }));
  });
});
