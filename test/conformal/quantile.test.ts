import { describe, expect, it } from "vitest";
import {
  ConformalError,
  calibrateSet,
  conformalPValue,
  conformalQuantile,
  conformalRank,
  decimalFraction,
  minimumN,
  mulberry32,
  predictSet,
  recommendedN,
  seedFromString,
  sortScores,
  coverageWithinProbability,
  resolveMethod,
} from "../../src/conformal/index.js";

describe("conformalRank: k = ⌈(n+1)(1−α)⌉ without floating-point error", () => {
  it("gives 3 for n = 9, α = 0.7 (floating point says 3.0000000000000004)", () => {
    expect((9 + 1) * (1 - 0.7)).toBeGreaterThan(3);
    expect(conformalRank(9, 0.7)).toBe(3);
  });
  it("is exact where (n+1)(1−α) is an integer", () => {
    expect(conformalRank(19, 0.05)).toBe(19);
    expect(conformalRank(9, 0.1)).toBe(9);
    expect(conformalRank(99, 0.1)).toBe(90);
    expect(conformalRank(29, 0.3)).toBe(21);
    expect(conformalRank(4, 0.2)).toBe(4);
    expect(conformalRank(999, 0.001)).toBe(999);
  });
  it("rounds up otherwise", () => {
    expect(conformalRank(10, 0.1)).toBe(10); // 9.9
    expect(conformalRank(100, 0.1)).toBe(91); // 90.9
    expect(conformalRank(8, 0.1)).toBe(9); // 9 > 8: infinite quantile
  });
  it("reads α as the decimal it prints as", () => {
    expect(decimalFraction(0.7)).toEqual({ num: 7n, den: 10n });
    expect(decimalFraction(1e-7)).toEqual({ num: 1n, den: 10000000n });
    expect(decimalFraction(0.1 + 0.2)).toEqual({ num: 30000000000000004n, den: 100000000000000000n });
  });
  it("refuses α outside (0, 1) with a typed error", () => {
    for (const a of [0, 1, -0.1, 1.5, NaN, Infinity]) {
      expect(() => conformalRank(10, a)).toThrow(ConformalError);
    }
    try {
      conformalRank(10, 2);
    } catch (e) {
      expect((e as ConformalError).code).toBe("INVALID_ALPHA");
      expect((e as ConformalError).name).toBe("ConformalError");
    }
  });
});

describe("conformalQuantile edges", () => {
  it("is +∞ when k > n, including n = 0", () => {
    expect(conformalQuantile(sortScores([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]), 0.1)).toBe(Infinity);
    expect(conformalQuantile(new Float64Array(0), 0.5)).toBe(Infinity);
  });
  it("one example: finite iff α ≥ 1/2", () => {
    expect(conformalQuantile(sortScores([0.3]), 0.5)).toBe(0.3);
    expect(conformalQuantile(sortScores([0.3]), 0.4)).toBe(Infinity);
  });
  it("ties: the k-th smallest with ties, and a tied test score is inside (score ≤ q̂)", () => {
    const s = sortScores([3, 2, 1, 2, 2]);
    expect(conformalQuantile(s, 0.5)).toBe(2); // k = 3
    expect(conformalPValue(s, 2)).toBeCloseTo(5 / 6, 15); // (#{≥2} + 1)/(n+1)
    expect(conformalPValue(s, 3)).toBeCloseTo(2 / 6, 15);
    expect(conformalPValue(s, 10)).toBeCloseTo(1 / 6, 15);
  });
  it("smoothed p-values use the injected rng and stay inside the tie bracket", () => {
    const s = sortScores([3, 2, 1, 2, 2]);
    const a = conformalPValue(s, 2, mulberry32(7));
    const b = conformalPValue(s, 2, mulberry32(7));
    expect(a).toBe(b);
    expect(a).toBeGreaterThanOrEqual(1 / 6);
    expect(a).toBeLessThanOrEqual(5 / 6);
  });
  it("refuses NaN scores", () => {
    expect(() => sortScores([1, NaN])).toThrow(/scores\[1\] is NaN/);
  });
});

describe("sets at the edges", () => {
  const rows = [
    [0.7, 0.2, 0.1],
    [0.5, 0.3, 0.2],
    [0.1, 0.8, 0.1],
    [0.3, 0.3, 0.4],
  ];
  it("LAC by hand: scores 1 − p_y, k-th smallest, set {j : 1 − p_j ≤ q̂}", () => {
    // true-label scores 0.3, 0.7, 0.2, 0.6; n = 4, α = 0.2 → k = 4 → q̂ = 0.7
    const cal = calibrateSet({ probabilities: rows, labels: [0, 1, 1, 2] }, { method: "lac", alpha: 0.2 });
    expect(cal.strata.get("")!.threshold).toBeCloseTo(0.7, 15);
    const p = predictSet(cal, { probabilities: [0.6, 0.3, 0.1], options: ["a", "b", "c"] });
    expect(p.set).toEqual(["a", "b"]);
    expect(Array.from(p.pValues).map((x) => x * 5)).toEqual([3, 2, 1].map((x) => expect.closeTo(x, 12)));
  });
  it("an unseen (empty) group gets the full set; each group's own n decides finiteness", () => {
    const groups = ["a", "a", "a", "b"];
    const cal = calibrateSet({ probabilities: rows, labels: [0, 1, 1, 2], groups }, { method: "LAC", alpha: 0.5 });
    expect(cal.strata.get("a")!.threshold).toBeCloseTo(0.3, 15); // n = 3, k = 2: scores .2 .3 .7
    expect(cal.strata.get("b")!.threshold).toBeCloseTo(0.6, 15); // n = 1, k = 1
    const unseen = predictSet(cal, { probabilities: [0.9, 0.05, 0.05], group: "zzz" });
    expect(unseen.set).toEqual(["0", "1", "2"]);
    expect(unseen.n).toBe(0);
    const cal2 = calibrateSet({ probabilities: rows, labels: [0, 1, 1, 2], groups }, { method: "LAC", alpha: 0.4 });
    expect(cal2.strata.get("b")!.threshold).toBe(Infinity);
    expect(cal2.strata.get("a")!.threshold).toBeCloseTo(0.7, 15);
  });
  it("refuses misuse clearly", () => {
    const cal = calibrateSet({ probabilities: rows, labels: [0, 1, 1, 2] }, { method: "LAC", alpha: 0.2 });
    expect(() => predictSet(undefined as never, { probabilities: [1] })).toThrow(/call calibrate first/);
    expect(() => predictSet({ kind: "gate" } as never, { probabilities: [1] })).toThrow(/got a calibrated gate/);
    expect(() => predictSet(cal, { probabilities: [0.5, 0.5, 0], group: "g" })).toThrow(/calibrated without groups/);
    expect(() => calibrateSet({ probabilities: rows, labels: [0, 1, 3, 2] }, { method: "LAC", alpha: 0.2 })).toThrow(/labels\[2\]/);
    expect(() => calibrateSet({ probabilities: rows, labels: [0, 1, 1, 2] }, { method: "APS", alpha: 0.2 })).toThrow(/rng/);
    expect(() => calibrateSet({ probabilities: rows, labels: [0, 1, 1, 2] }, { method: "XYZ", alpha: 0.2 })).toThrow(/unknown set method "XYZ"/);
    expect(() => calibrateSet({ probabilities: [[0.5, NaN]], labels: [0] }, { method: "LAC", alpha: 0.2 })).toThrow(/probabilities\[0\]\[1\]/);
  });
  it("method names resolve case-insensitively", () => {
    expect(resolveMethod("raps").name).toBe("RAPS");
    expect(resolveMethod("Ordinal-APS").name).toBe("ordinal-aps");
    expect(resolveMethod("cqr", "interval").type).toBe("interval");
  });
  it("identical inputs and seeds give identical outputs", () => {
    const run = () => {
      const rng = mulberry32(seedFromString("profile@1/q1"));
      const cal = calibrateSet({ probabilities: rows, labels: [0, 1, 1, 2] }, { method: "APS", alpha: 0.2, rng });
      return predictSet(cal, { probabilities: [0.4, 0.35, 0.25] }, rng);
    };
    expect(run()).toEqual(run());
    expect(seedFromString("a")).not.toBe(seedFromString("b"));
    expect(seedFromString("profile@1/q1")).toBe(seedFromString("profile@1/q1"));
  });
});

describe("sample sizes", () => {
  it("minimumN is the smallest n with a finite quantile", () => {
    for (const a of [0.1, 0.05, 0.2, 0.3, 0.7, 0.01, 0.15]) {
      const n = minimumN(a);
      expect(conformalRank(n, a)).toBeLessThanOrEqual(n);
      expect(conformalRank(n - 1, a)).toBeGreaterThan(n - 1);
    }
    expect(minimumN(0.1)).toBe(9);
    expect(minimumN(0.05)).toBe(19);
  });
  it("recommendedN reaches ±0.02 with 95% and n − 1 does not", () => {
    for (const a of [0.1, 0.05, 0.2]) {
      const n = recommendedN(a);
      expect(coverageWithinProbability(n, a, 0.02)).toBeGreaterThanOrEqual(0.95);
      expect(coverageWithinProbability(n - 1, a, 0.02)).toBeLessThan(0.95);
      // Normal approximation as a sanity bound: n ≈ 1.96² α(1−α)/0.02².
      expect(n).toBeGreaterThan(0.8 * (1.96 ** 2 * a * (1 - a)) / 0.0004);
      expect(n).toBeLessThan(1.3 * (1.96 ** 2 * a * (1 - a)) / 0.0004);
    }
  });
});
