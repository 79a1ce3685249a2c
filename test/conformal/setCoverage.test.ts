// Statistical property tests: mean coverage over ≥ 1,000 seeded random calibration/test splits lies in
// [1 − α, 1 − α + 1/(n+1)] widened by 3 Monte-Carlo standard errors.
import { describe, expect, it } from "vitest";
import { calibrateSet, mulberry32, permutation, predictSet, type Rng } from "../../src/conformal/index.js";
import { classificationPool, expectInCoverageBand } from "./synthetic.js";

const TRIALS = 1000;
const N_CAL = 100;
const N_TEST = 50;
const K = 6;
const ALPHA = 0.1;
const POOL = 4000;

function splitCoverage(method: string, seed: number, opts: { groups?: boolean; classConditional?: boolean } = {}) {
  const rng: Rng = mulberry32(seed);
  const pool = classificationPool(POOL, K, rng);
  const groupOf = (i: number) => (pool.data[i * K]! > 0.3 ? "easy" : "hard");
  const perTrial = new Float64Array(TRIALS);
  const perGroup: Record<string, number[]> = { easy: [], hard: [] };
  const perClass: number[][] = Array.from({ length: K }, () => []);
  const row = (i: number) => pool.data.subarray(i * K, i * K + K);
  for (let t = 0; t < TRIALS; t++) {
    const perm = permutation(POOL, rng);
    const calIdx = perm.subarray(0, N_CAL);
    const testIdx = perm.subarray(N_CAL, N_CAL + N_TEST);
    const cal = calibrateSet(
      {
        probabilities: Array.from(calIdx, row),
        labels: Array.from(calIdx, (i) => pool.labels[i]!),
        ...(opts.groups ? { groups: Array.from(calIdx, groupOf) } : {}),
      },
      { method, alpha: ALPHA, rng, classConditional: opts.classConditional ?? false, lambda: method === "RAPS" ? 0.05 : undefined, kReg: method === "RAPS" ? 2 : undefined },
    );
    let covered = 0;
    const g: Record<string, [number, number]> = { easy: [0, 0], hard: [0, 0] };
    const c = Array.from({ length: K }, () => [0, 0] as [number, number]);
    for (const i of testIdx) {
      const p = predictSet(cal, { probabilities: row(i), ...(opts.groups ? { group: groupOf(i) } : {}) }, rng, { pValues: false });
      const hit = p.indices.includes(pool.labels[i]!) ? 1 : 0;
      covered += hit;
      g[groupOf(i)]![0] += hit;
      g[groupOf(i)]![1]++;
      c[pool.labels[i]!]![0] += hit;
      c[pool.labels[i]!]![1]++;
    }
    perTrial[t] = covered / N_TEST;
    for (const k of ["easy", "hard"]) if (g[k]![1]) perGroup[k]!.push(g[k]![0] / g[k]![1]);
    c.forEach(([h, m], j) => m && perClass[j]!.push(h / m));
  }
  return { perTrial, perGroup, perClass };
}

const check = (ok: boolean, msg: string) => expect(ok, msg).toBe(true);

describe("set coverage over 1,000 random splits (n = 100, α = 0.1)", () => {
  for (const [method, seed] of [["LAC", 1], ["APS", 2], ["RAPS", 3]] as const) {
    it(`${method}: marginal coverage in the finite-sample band`, () => {
      expectInCoverageBand(splitCoverage(method, seed).perTrial, ALPHA, N_CAL, check);
    });
  }
  it("APS non-randomized: at least 1 − α (scores continuous, so also in the band)", () => {
    const rng = mulberry32(9);
    const pool = classificationPool(POOL, K, rng);
    const per = new Float64Array(TRIALS);
    const row = (i: number) => pool.data.subarray(i * K, i * K + K);
    for (let t = 0; t < TRIALS; t++) {
      const perm = permutation(POOL, rng);
      const cal = calibrateSet({ probabilities: Array.from(perm.subarray(0, N_CAL), row), labels: Array.from(perm.subarray(0, N_CAL), (i) => pool.labels[i]!) }, { method: "APS", alpha: ALPHA, randomized: false });
      let hit = 0;
      for (const i of perm.subarray(N_CAL, N_CAL + N_TEST)) hit += predictSet(cal, { probabilities: row(i) }, undefined, { pValues: false }).indices.includes(pool.labels[i]!) ? 1 : 0;
      per[t] = hit / N_TEST;
    }
    expectInCoverageBand(per, ALPHA, N_CAL, check);
  });
  it("Mondrian (group_by): each group's coverage ≥ 1 − α with its own n", () => {
    const { perGroup } = splitCoverage("LAC", 4, { groups: true });
    for (const k of ["easy", "hard"]) {
      const v = perGroup[k]!;
      const mean = v.reduce((a, b) => a + b, 0) / v.length;
      const se = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1) / v.length);
      expect(mean, `group ${k}`).toBeGreaterThanOrEqual(1 - ALPHA - 3 * se);
    }
  });
  it("class-conditional: each class's coverage ≥ 1 − α", () => {
    const { perClass } = splitCoverage("APS", 5, { classConditional: true });
    for (const v of perClass) {
      const mean = v.reduce((a, b) => a + b, 0) / v.length;
      const se = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1) / v.length);
      expect(mean).toBeGreaterThanOrEqual(1 - ALPHA - 3 * se);
    }
  });
  it("RAPS with tuning (λ, k_reg from a held-out 20%) still covers", () => {
    const rng = mulberry32(6);
    const pool = classificationPool(POOL, K, rng);
    const row = (i: number) => pool.data.subarray(i * K, i * K + K);
    const per = new Float64Array(TRIALS);
    const n = 125; // 100 calibrate after the 25 tuning examples
    for (let t = 0; t < TRIALS; t++) {
      const perm = permutation(POOL, rng);
      const cal = calibrateSet({ probabilities: Array.from(perm.subarray(0, n), row), labels: Array.from(perm.subarray(0, n), (i) => pool.labels[i]!) }, { method: "raps", alpha: ALPHA, rng });
      expect(cal.n).toBe(100);
      let hit = 0;
      for (const i of perm.subarray(n, n + N_TEST)) hit += predictSet(cal, { probabilities: row(i) }, rng, { pValues: false }).indices.includes(pool.labels[i]!) ? 1 : 0;
      per[t] = hit / N_TEST;
    }
    expectInCoverageBand(per, ALPHA, 100, check);
  });
});
