import { describe, expect, it } from "vitest";
import { countBelow, countBelowIndexed, mulberry32 } from "../../src/conformal/index.js";

// The coarse index is kept per array: a wrong block bound would give a count one block off, for some scores only.
describe("countBelowIndexed", () => {
  it("gives countBelow's count for every kind of score, on arrays around the indexed size and block edges", () => {
    const rng = mulberry32(12);
    for (const n of [0, 1, 31, 32, 33, 8191, 8192, 8193, 8224, 8225, 20_000, 100_003]) {
      // Few distinct values (long runs of ties) and many; a -0 and a 0 among them.
      for (const distinct of [3, 1000, n]) {
        const sorted = Float64Array.from({ length: n }, () => Math.floor(rng() * Math.max(1, distinct)) / Math.max(1, distinct)).sort();
        if (n > 2) sorted[0] = -0;
        const probes = [-Infinity, -1, -0, 0, 0.5, 1, 2, Infinity, NaN];
        for (let t = 0; t < 400 && n > 0; t++) {
          const i = Math.floor(rng() * n);
          probes.push(sorted[i]!, sorted[i]! + 1e-12, sorted[i]! - 1e-12, rng());
        }
        for (const s of probes) expect(countBelowIndexed(sorted, s), `n ${n}, distinct ${distinct}, s ${s}`).toBe(countBelow(sorted, s));
      }
    }
  });
});
