import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/conformal/index.js";
import { selectKth } from "../../src/conformal/numeric/selectKth.js";

// selectKth must give sortAscending(a)[k − 1] bit for bit, −0 included, whatever the input's order and ties.
describe("selectKth: the k-th smallest, exactly", () => {
  const rng = mulberry32(7);
  const cases: [string, (n: number) => Float64Array][] = [
    ["uniform", (n) => Float64Array.from({ length: n }, () => rng())],
    ["few distinct values", (n) => Float64Array.from({ length: n }, () => Math.floor(rng() * 5) / 4)],
    ["ascending", (n) => Float64Array.from({ length: n }, (_, i) => i / n)],
    ["descending", (n) => Float64Array.from({ length: n }, (_, i) => -i)],
    ["all equal", (n) => new Float64Array(n).fill(0.25)],
    ["signed zeros and infinities", (n) => Float64Array.from({ length: n }, () => [0, -0, -Infinity, Infinity, 1e-300][Math.floor(rng() * 5)]!)],
    ["organ pipe", (n) => Float64Array.from({ length: n }, (_, i) => Math.min(i, n - i))],
  ];
  for (const [name, make] of cases) {
    it(`matches the sorted order on ${name} inputs (small and sampled sizes)`, () => {
      for (const n of [1, 2, 17, 4095, 4096, 20_000]) {
        const a = make(n);
        const sorted = Float64Array.from(a).sort();
        for (const k of [1, 2, Math.ceil(n / 2), Math.ceil(0.9 * (n + 1)) > n ? n : Math.ceil(0.9 * (n + 1)), n]) {
          const got = selectKth(Float64Array.from(a), k);
          expect(Object.is(got, sorted[k - 1]), `${name} n=${n} k=${k}: ${got} vs ${sorted[k - 1]}`).toBe(true);
        }
      }
    });
  }
});
