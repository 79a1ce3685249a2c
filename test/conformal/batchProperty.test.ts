// The columnar batch API and the per-row API are one engine: over random inputs (ties, groups, unseen groups,
// class-conditional, every method, randomized or not with a fixed seed) they give identical calibrations,
// sets, scores, thresholds and p-values, bit for bit (Object.is, so −0 and ±∞ count).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  apsOptionScores,
  lacOptionScores,
  calibrateSet,
  calibrateSetBatch,
  calibratedToJSON,
  encodeGroups,
  mulberry32,
  predictSet,
  predictSetBatch,
} from "../../src/conformal/index.js";

const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((x, i) => Object.is(x, b[i]));

const setCase = fc
  .record({
    K: fc.integer({ min: 1, max: 7 }),
    n: fc.integer({ min: 0, max: 45 }),
    m: fc.integer({ min: 0, max: 12 }),
    grid: fc.constantFrom(2, 4, 10, 0), // 0: continuous values; small grids: many ties within and across rows
    method: fc.constantFrom("LAC", "APS", "RAPS"),
    alpha: fc.constantFrom(0.05, 0.1, 0.2, 0.3, 0.5, 0.7),
    randomized: fc.boolean(),
    classConditional: fc.boolean(),
    grouped: fc.boolean(),
    fixedRaps: fc.boolean(),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  })
  .chain((c) =>
    fc.record({
      c: fc.constant(c),
      cal: fc.array(fc.tuple(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: c.K, maxLength: c.K }), fc.nat(c.K - 1), fc.constantFrom("a", "b", "c")), { minLength: c.n, maxLength: c.n }),
      test: fc.array(fc.tuple(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: c.K, maxLength: c.K }), fc.constantFrom("a", "b", "zzz")), { minLength: c.m, maxLength: c.m }),
    }),
  );

describe("batch and per-row set APIs agree", () => {
  it("calibrations, memberships, sizes, n, scores, thresholds and p-values are identical (2,000 random cases)", () => {
    fc.assert(
      fc.property(setCase, ({ c, cal, test }) => {
        const snap = (x: number) => (c.grid ? Math.round(x * c.grid) / c.grid : x);
        const rows = cal.map(([p]) => p.map(snap));
        const labels = cal.map(([, y]) => y);
        const groups = cal.map(([, , g]) => g);
        const options = {
          method: c.method,
          alpha: c.alpha,
          randomized: c.randomized,
          classConditional: c.classConditional,
          ...(c.method === "RAPS" && c.fixedRaps ? { lambda: 0.1, kReg: 1 } : {}),
        };
        const perRow = calibrateSet({ probabilities: rows, labels, ...(c.grouped ? { groups } : {}) }, { ...options, rng: mulberry32(c.seed) });
        const batch = calibrateSetBatch(
          { probabilities: Float64Array.from(rows.flat()), width: c.K, labels: Int32Array.from(labels), ...(c.grouped ? { groups: encodeGroups(groups) } : {}) },
          { ...options, rng: mulberry32(c.seed) },
        );
        expect(calibratedToJSON(batch)).toBe(calibratedToJSON(perRow));

        const testRows = test.map(([p]) => p.map(snap));
        const testGroups = test.map(([, g]) => g);
        const one = mulberry32(c.seed + 1);
        const expected = testRows.map((p, i) => predictSet(perRow, { probabilities: p, ...(c.grouped ? { group: testGroups[i]! } : {}) }, one));
        const batchIn = { probabilities: Float64Array.from(testRows.flat()), width: c.K, ...(c.grouped ? { groups: encodeGroups(testGroups) } : {}) };
        const got = predictSetBatch(batch, batchIn, { rng: mulberry32(c.seed + 1), scores: true, pValues: true, thresholds: true });
        // The same uniforms given explicitly (one per row, as a service passes one per query seed).
        const draw = mulberry32(c.seed + 1);
        const uniforms = Float64Array.from(testRows, () => (batch.randomized ? draw() : 0));
        const lean = predictSetBatch(batch, batchIn, { uniforms });
        expected.forEach((e, i) => {
          const row = (a: ArrayLike<number>) => Array.from(a).slice(i * c.K, i * c.K + c.K);
          expect(row(got.membership).flatMap((x, j) => (x ? [j] : []))).toEqual(e.indices);
          expect(row(lean.membership)).toEqual(row(got.membership));
          expect(got.sizes[i]).toBe(e.indices.length);
          expect(lean.sizes[i]).toBe(e.indices.length);
          expect(got.n[i]).toBe(e.n);
          expect(same(row(got.scores!), e.scores)).toBe(true);
          // And both equal the scores of the definitions (scores/*.ts, an independent sort per row).
          const ref = new Float64Array(c.K);
          if (c.method === "LAC") lacOptionScores(testRows[i]!, 0, c.K, ref);
          else apsOptionScores(testRows[i]!, 0, c.K, batch.randomized ? uniforms[i]! : 1, new Int32Array(c.K), ref, c.method === "RAPS" ? batch.lambda : 0, batch.kReg);
          expect(same(e.scores, ref)).toBe(true);
          // p-values from the stratum's sorted scores by plain counting (the kernel uses a guide table).
          const st = perRow.strata.get(c.classConditional ? `${c.grouped ? testGroups[i] : ""}\u001f0` : c.grouped ? testGroups[i]! : "");
          if (st && !c.classConditional) expect(same(e.pValues, e.scores.map((x) => (st.n - Array.from(st.scores).filter((v) => v < x).length + 1) / (st.n + 1)))).toBe(true);
          expect(same(row(got.thresholds!), e.thresholds)).toBe(true);
          expect(same(row(got.pValues!), e.pValues)).toBe(true);
        });
      }),
      { seed: 14_2026, numRuns: 2000 },
    );
  });
  it("the batch refuses what the per-row API refuses, naming the field", () => {
    const cal = calibrateSetBatch({ probabilities: Float64Array.of(0.7, 0.3, 0.4, 0.6), width: 2, labels: Int32Array.of(0, 1), groups: encodeGroups(["a", "b"]) }, { method: "LAC", alpha: 0.5 });
    expect(() => predictSetBatch(cal, { probabilities: Float64Array.of(0.5, 0.5), width: 2 })).toThrow(/needs groups/);
    expect(() => predictSetBatch(cal, { probabilities: Float64Array.of(0.5, NaN), width: 2, groups: encodeGroups(["a"]) })).toThrow(/probabilities\[0\]\[1\]/);
    expect(() => calibrateSetBatch({ probabilities: Float64Array.of(0.5, 0.5), width: 2, labels: Int32Array.of(2) }, { method: "LAC", alpha: 0.5 })).toThrow(/labels\[0\]/);
    expect(() => calibrateSetBatch({ probabilities: Float64Array.of(0.5, 0.5, 1), width: 2, labels: Int32Array.of(0) }, { method: "LAC", alpha: 0.5 })).toThrow(/multiple of width/);
    expect(() => predictSetBatch({ kind: "gate" } as never, { probabilities: Float64Array.of(1), width: 1 })).toThrow(/calibrated set/);
  });
});
