// The columnar interval and Venn–Abers APIs against their per-row forms, over random inputs with ties and
// groups (unseen groups included), both ordinal methods, randomized or not with a fixed seed: identical
// calibrations and identical answers, bit for bit.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  calibrateBelief,
  calibrateInterval,
  calibrateIntervalBatch,
  calibrateNumericInterval,
  calibrateNumericIntervalBatch,
  calibrateOptionBeliefs,
  calibratedToJSON,
  encodeGroups,
  mulberry32,
  predictBelief,
  predictBeliefBatch,
  predictInterval,
  predictIntervalBatch,
  predictNumericInterval,
  predictNumericIntervalBatch,
  predictOptionBeliefs,
  predictOptionBeliefsBatch,
  vennAbersReference,
} from "../../src/conformal/index.js";

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const snapTo = (grid: number) => (x: number) => (grid ? Math.round(x * grid) / grid : x);

describe("batch and per-row interval and belief APIs agree", () => {
  it("ordinal CQR / ordinal-APS and numeric CQR (1,000 random cases)", () => {
    const c = fc.record({
      L: fc.integer({ min: 1, max: 7 }), n: fc.integer({ min: 0, max: 40 }), m: fc.integer({ min: 0, max: 10 }),
      grid: fc.constantFrom(2, 5, 0), method: fc.constantFrom("CQR", "ordinal-aps"), alpha: fc.constantFrom(0.1, 0.2, 0.5),
      randomized: fc.boolean(), grouped: fc.boolean(), seed: fc.nat(),
    }).chain((c) => fc.record({
      c: fc.constant(c),
      cal: fc.array(fc.tuple(fc.array(unit, { minLength: c.L, maxLength: c.L }), fc.nat(c.L - 1), fc.constantFrom("a", "b"), unit, unit, unit), { minLength: c.n, maxLength: c.n }),
      test: fc.array(fc.tuple(fc.array(unit, { minLength: c.L, maxLength: c.L }), fc.constantFrom("a", "b", "new"), unit, unit), { minLength: c.m, maxLength: c.m }),
    }));
    fc.assert(fc.property(c, ({ c, cal, test }) => {
      const snap = snapTo(c.grid);
      const rows = cal.map(([p]) => p.map(snap));
      const labels = cal.map(([, y]) => y);
      const groups = cal.map(([, , g]) => g);
      const opts = { method: c.method, alpha: c.alpha, randomized: c.randomized };
      const perRow = calibrateInterval({ probabilities: rows, labels, ...(c.grouped ? { groups } : {}) }, { ...opts, rng: mulberry32(c.seed) });
      const batch = calibrateIntervalBatch({ probabilities: Float64Array.from(rows.flat()), width: c.L, labels: Int32Array.from(labels), ...(c.grouped ? { groups: encodeGroups(groups) } : {}) }, { ...opts, rng: mulberry32(c.seed) });
      expect(calibratedToJSON(batch)).toBe(calibratedToJSON(perRow));
      const testRows = test.map(([p]) => p.map(snap));
      const tg = test.map(([, g]) => g);
      const rng = mulberry32(c.seed + 1);
      const expected = testRows.map((p, i) => predictInterval(perRow, { probabilities: p, ...(c.grouped ? { group: tg[i]! } : {}) }, rng));
      const got = predictIntervalBatch(batch, { probabilities: Float64Array.from(testRows.flat()), width: c.L, ...(c.grouped ? { groups: encodeGroups(tg) } : {}) }, { rng: mulberry32(c.seed + 1) });
      expected.forEach((e, i) => {
        expect([got.lower[i], got.upper[i], got.point[i], got.threshold[i], got.n[i]]).toEqual([e.lower, e.upper, e.pointEstimate, e.threshold, e.n]);
      });
      // Numeric CQR on the same draws: lower = the first coordinate, upper = lower + the second.
      const lo = cal.map(([, , , a]) => snap(a));
      const hi = cal.map(([, , , a, b]) => snap(a) + snap(b));
      const y = cal.map(([, , , , , v]) => snap(v) * 2 - 0.5);
      const nPer = calibrateNumericInterval({ lower: lo, upper: hi, y, ...(c.grouped ? { groups } : {}) }, { alpha: c.alpha });
      const nBatch = calibrateNumericIntervalBatch({ lower: Float64Array.from(lo), upper: Float64Array.from(hi), y: Float64Array.from(y), ...(c.grouped ? { groups: encodeGroups(groups) } : {}) }, { alpha: c.alpha });
      expect(calibratedToJSON(nBatch)).toBe(calibratedToJSON(nPer));
      const tlo = Float64Array.from(test, ([, , a]) => a);
      const thi = Float64Array.from(test, ([, , a, b]) => a + b);
      const nb = predictNumericIntervalBatch(nBatch, { lower: tlo, upper: thi, ...(c.grouped ? { groups: encodeGroups(tg) } : {}) });
      test.forEach((_, i) => {
        const e = predictNumericInterval(nPer, { lower: tlo[i]!, upper: thi[i]!, ...(c.grouped ? { group: tg[i]! } : {}) });
        expect([nb.lower[i], nb.upper[i], nb.threshold[i], nb.n[i]]).toEqual([e.lower, e.upper, e.threshold, e.n]);
      });
    }), { seed: 14_2027, numRuns: 1000 });
  });

  it("Venn–Abers: batch = per row = refitting PAV with the test point added, ties between test and calibration scores included", () => {
    const c = fc.record({ grid: fc.constantFrom(2, 4, 9, 0), cal: fc.array(fc.tuple(unit, fc.boolean()), { maxLength: 40 }), test: fc.array(unit, { maxLength: 12 }) });
    fc.assert(fc.property(c, ({ grid, cal, test }) => {
      const snap = snapTo(grid);
      const s = cal.map(([x]) => snap(x));
      const y = cal.map(([, b]) => (b ? 1 : 0));
      const fit = calibrateBelief(s, y);
      const points = Float64Array.from([...test.map(snap), ...s.slice(0, 4), -1, 2]);
      const got = predictBeliefBatch(fit, points);
      points.forEach((t, i) => {
        const e = predictBelief(fit, t);
        expect([got.p0[i], got.p1[i], got.probability[i]]).toEqual([e.p0, e.p1, e.probability]);
        const ref = vennAbersReference(s, y, t);
        expect(e.p0).toBeCloseTo(ref.p0, 12);
        expect(e.p1).toBeCloseTo(ref.p1, 12);
      });
    }), { seed: 14_2028, numRuns: 1500 });
  });

  it("per-option Venn–Abers: batch = per row", () => {
    const rng = mulberry32(5);
    const K = 4;
    const data = Float64Array.from({ length: 300 * K }, () => Math.round(rng() * 8) / 8);
    const labels = Int32Array.from({ length: 300 }, () => Math.floor(rng() * K));
    const cal = calibrateOptionBeliefs({ probabilities: { data, width: K }, labels });
    const test = Float64Array.from({ length: 50 * K }, () => Math.round(rng() * 16) / 16);
    const got = predictOptionBeliefsBatch(cal, { probabilities: test, width: K });
    for (let i = 0; i < 50; i++) {
      const e = predictOptionBeliefs(cal, test.subarray(i * K, i * K + K));
      e.forEach((b, j) => expect([got.p0[i * K + j], got.p1[i * K + j]]).toEqual([b.p0, b.p1]));
    }
  });
});
