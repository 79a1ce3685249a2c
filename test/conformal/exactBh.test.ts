// Benjamini–Hochberg on conformal p-values, compared exactly (issue 29): p-values are ratios of integers and
// ties at the boundary must pass together, as each passes alone.
import { describe, expect, it } from "vitest";
import { benjaminiHochberg, benjaminiHochbergCounts, calibrateGate, decide, decideBatch, gatePValue, mulberry32 } from "../../src/conformal/index.js";

describe("exact Benjamini–Hochberg", () => {
  it("43 tied p-values of exactly 10/200 at q = 0.05 pass together, as each passes alone", () => {
    // (0.05·43)/43 is 0.049999999999999996 in floating point: the float rule rejected none of them.
    expect(benjaminiHochberg(Array(43).fill(0.05), 0.05)).toEqual(Array(43).fill(true));
    expect(benjaminiHochbergCounts(Array(43).fill(10), 200, 0.05)).toEqual(Array(43).fill(true));
    // n = 199 calibration examples, 9 fails scored above 0.5: p(0.5) = (1 + 9)/200 = 0.05.
    const scores = [...Array(9).fill(0.95), ...Array(40).fill(0.1), ...Array(150).fill(0.7)];
    const labels = [...Array(9).fill(0), ...Array(40).fill(0), ...Array(150).fill(1)];
    const cal = calibrateGate({ scores, labels }, { guarantee: "fdr", target: 0.05 });
    expect(gatePValue(cal, 0.5)).toBe(0.05);
    expect(decide(cal, 0.5)).toBe("auto_approve");
    expect(decideBatch(cal, Array(43).fill(0.5))).toEqual(Array(43).fill("auto_approve"));
    // One more fail above 0.5 and nobody passes.
    expect(decideBatch(cal, [...Array(42).fill(0.5), 0.96 - 0.9])).toEqual(Array(43).fill("escalate"));
  });

  it("agrees with the rule done in exact rational arithmetic on random integer-ratio p-values, ties included", () => {
    const rng = mulberry32(2901);
    let flips = 0;
    for (let t = 0; t < 2000; t++) {
      const d = 20 + Math.floor(rng() * 400);
      const m = 1 + Math.floor(rng() * 60);
      const q = [0.05, 0.1, 0.2, 0.15, 0.3][t % 5]!;
      const counts = Array.from({ length: m }, () => 1 + Math.floor(rng() * rng() * d));
      // Reference: BigInt rationals, p_(i) = c/d ≤ q·i/m ⇔ c·m·100 ≤ (100q)·i·d.
      const sorted = [...counts].sort((a, b) => a - b);
      let r = 0;
      for (let i = m; i >= 1; i--) if (BigInt(sorted[i - 1]!) * BigInt(m) * 100n <= BigInt(Math.round(q * 100)) * BigInt(i) * BigInt(d)) { r = i; break; }
      const expected = counts.map((c) => c <= (sorted[r - 1] ?? 0) && r > 0);
      const got = benjaminiHochbergCounts(counts, d, q);
      expect(got.filter(Boolean).length).toBe(r);
      expect(got).toEqual(expected);
      // The float rule of before, for the record of how often it was wrong.
      const floatR = (() => { for (let i = m; i >= 1; i--) if (sorted[i - 1]! / d <= (q * i) / m) return i; return 0; })();
      if (floatR !== r) flips++;
    }
    expect(flips).toBeGreaterThan(0);
  });
});
