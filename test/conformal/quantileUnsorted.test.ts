// Issue #14: conformalQuantile on unsorted input returned an arbitrary element (0.05 below); it now sorts a copy.
import { describe, expect, it } from "vitest";
import { conformalQuantile, mulberry32, sortAscending, sortScores } from "../../src/conformal/index.js";
import { sortAscendingSteps } from "../../src/conformal/numeric/sortAscending.js";

describe("conformalQuantile on unsorted input", () => {
  it("gives the k-th smallest whatever the order (the issue's example: 0.9, not 0.05)", () => {
    const scores = [0.1, 0.5, 0.3, 0.9, 0.2, 0.7, 0.4, 0.8, 0.6, 0.05];
    expect(conformalQuantile(Float64Array.from(scores), 0.1)).toBe(0.9);
    expect(conformalQuantile(scores, 0.1)).toBe(0.9);
    expect(conformalQuantile(scores, 0.5)).toBe(0.5); // k = ⌈11 · 0.5⌉ = 6
    expect(scores[0]).toBe(0.1); // the caller's array is left as it was
    expect(() => conformalQuantile([0.1, NaN], 0.5)).toThrow(/scores\[1\] is NaN/);
  });
  it("the radix sort orders like TypedArray#sort, −0, ±∞ and near-equal values included", () => {
    const rng = mulberry32(3);
    for (const n of [0, 1, 100, 2048, 5000, 40_000]) {
      const a = Float64Array.from({ length: n }, (_, i) => (i % 97 === 0 ? [-0, 0, Infinity, -Infinity][i % 4]! : i % 13 === 0 ? 0.5 + i * 1e-15 : (rng() - 0.5) * 10 ** Math.floor(rng() * 8 - 4)));
      const expected = a.slice().sort();
      const got = sortAscending(a.slice());
      expect(got.every((x, i) => Object.is(x, expected[i]))).toBe(true);
      expect(sortScores(a).every((x, i) => Object.is(x, expected[i]))).toBe(true);
    }
  });
});

describe("sortAscendingSteps", () => {
  it("sorts as sortAscending does, bit for bit, yielding between passes, while other sorts run between its steps", () => {
    const r = mulberry32(11);
    for (const n of [10, 5000, 40_000]) {
      const a = Float64Array.from({ length: n }, () => [0, -0, Infinity, -Infinity, r() - 0.5, 1e-300][Math.floor(r() * 6)]!);
      const steps = sortAscendingSteps(Float64Array.from(a));
      let yields = 0;
      let next = steps.next();
      for (; !next.done; next = steps.next()) {
        yields++;
        sortAscending(Float64Array.from({ length: 3000 }, () => r())); // shares nothing with the stepwise sort
      }
      const want = sortAscending(Float64Array.from(a));
      expect(next.value.every((v, i) => Object.is(v, want[i]))).toBe(true);
      if (n >= 5000) expect(yields).toBeGreaterThan(2);
    }
  });
});
