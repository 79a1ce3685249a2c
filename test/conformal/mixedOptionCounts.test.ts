// Mixed option counts (items of 3, 4 and 5 options calibrated together): LAC, APS and RAPS scores are defined
// for any number of options, so one calibration over all items keeps the split-conformal guarantee; randomized
// APS / RAPS stay exact (mean coverage in [1 − α, 1 − α + 1/(n+1)]) although K differs between items. A
// Mondrian split by option count (groups = K) holds per count. Statistics over 1,000 seeded splits.
import { describe, expect, it } from "vitest";
import {
  calibrateOptionBeliefsPooled, calibrateSet, mulberry32, permutation, predictOptionBeliefs, predictSet, predictSetRows, type Rng,
} from "../../src/conformal/index.js";
import { classificationPool, expectInCoverageBand, meanAndSe } from "./synthetic.js";

const TRIALS = 1000;
const N_CAL = 120;
const N_TEST = 60;
const ALPHA = 0.1;
const WIDTHS = [3, 4, 5] as const;
/** Each count its own logit scale: the counts differ in difficulty, as real files do. */
const TEMPS = [1, 2, 3] as const;
const POOL_PER_K = 1500;

function mixedPool(rng: Rng): { rows: Float64Array[]; labels: number[] } {
  const parts = WIDTHS.map((K, w) => classificationPool(POOL_PER_K, K, rng, TEMPS[w]));
  const rows: Float64Array[] = [];
  const labels: number[] = [];
  for (let i = 0; i < POOL_PER_K; i++) {
    WIDTHS.forEach((K, w) => {
      rows.push(parts[w]!.data.slice(i * K, (i + 1) * K));
      labels.push(parts[w]!.labels[i]!);
    });
  }
  return { rows, labels };
}

function coverage(method: string, seed: number, mondrian: boolean) {
  const rng = mulberry32(seed);
  const pool = mixedPool(rng);
  const total = pool.rows.length;
  const perTrial = new Float64Array(TRIALS);
  const perCount = new Map<number, number[]>(WIDTHS.map((K) => [K, []]));
  const raps = method === "RAPS" ? { lambda: 0.05, kReg: 1 } : {};
  for (let t = 0; t < TRIALS; t++) {
    const perm = permutation(total, rng);
    const cal = Array.from(perm.subarray(0, N_CAL));
    const test = Array.from(perm.subarray(N_CAL, N_CAL + N_TEST));
    const c = calibrateSet({
      probabilities: cal.map((i) => pool.rows[i]!), labels: cal.map((i) => pool.labels[i]!),
      ...(mondrian ? { groups: cal.map((i) => String(pool.rows[i]!.length)) } : {}),
    }, { method, alpha: ALPHA, rng, ...raps });
    const sets = predictSetRows(c, test.map((i) => pool.rows[i]!), { rng, ...(mondrian ? { groups: test.map((i) => String(pool.rows[i]!.length)) } : {}) });
    let hit = 0;
    const byK = new Map<number, [number, number]>();
    test.forEach((i, r) => {
      const h = sets.membership[r]![pool.labels[i]!]!;
      hit += h;
      const K = pool.rows[i]!.length;
      const e = byK.get(K) ?? [0, 0];
      byK.set(K, [e[0] + h, e[1] + 1]);
    });
    perTrial[t] = hit / N_TEST;
    for (const [K, [h, m]] of byK) perCount.get(K)!.push(h / m);
  }
  return { perTrial, perCount };
}

const check = (ok: boolean, msg: string) => expect(ok, msg).toBe(true);

describe("one calibration across option counts 3, 4 and 5 (n = 120, α = 0.1, 1,000 splits)", () => {
  for (const [method, seed] of [["LAC", 11], ["APS", 12], ["RAPS", 13]] as const) {
    it(`${method}: marginal coverage in the finite-sample band`, () => {
      expectInCoverageBand(coverage(method, seed, false).perTrial, ALPHA, N_CAL, check);
    });
  }

  it("pooled calibration promises nothing per count: the easiest and hardest counts drift apart (what Mondrian is for)", () => {
    const { perCount } = coverage("LAC", 14, false);
    const mean = (K: number) => meanAndSe(perCount.get(K)!).mean;
    expect(Math.abs(mean(3) - mean(5))).toBeGreaterThan(0.02);
  });

  for (const [method, seed] of [["LAC", 15], ["APS", 16]] as const) {
    it(`${method} Mondrian by option count: each count's coverage ≥ 1 − α`, () => {
      const { perCount } = coverage(method, seed, true);
      for (const K of WIDTHS) {
        const { mean, se } = meanAndSe(perCount.get(K)!);
        // Each count gets about a third of the calibration examples: the band's top is 1 − α + 1/(n/3 + 1).
        expect(mean, `K = ${K}`).toBeGreaterThanOrEqual(1 - ALPHA - 3 * se);
        expect(mean, `K = ${K}`).toBeLessThanOrEqual(1 - ALPHA + 1 / (N_CAL / 3 - 10 + 1) + 3 * se);
      }
    });
  }

  it("predictSetRows gives the per-row API's sets with the same draws, whatever each row's width", () => {
    const rng = mulberry32(21);
    const pool = mixedPool(rng);
    for (const method of ["LAC", "APS", "RAPS"]) {
      const c = calibrateSet({ probabilities: pool.rows.slice(0, 300), labels: pool.labels.slice(0, 300) }, { method, alpha: 0.2, rng: mulberry32(5) });
      const test = pool.rows.slice(300, 420);
      const draws = Float64Array.from(test, () => rng());
      const together = predictSetRows(c, test, { uniforms: draws });
      test.forEach((row, i) => {
        const one = predictSet(c, { probabilities: row }, () => draws[i]!, { pValues: false });
        expect(Array.from(together.membership[i]!).flatMap((x, j) => (x ? [j] : []))).toEqual(one.indices);
        expect(together.sizes[i]).toBe(one.indices.length);
      });
    }
  });

  it("Venn–Abers over every option of every row (rows of any width): calibrated in the large on a calibrated model", () => {
    const rng = mulberry32(31);
    const pool = mixedPool(rng);
    const cal = calibrateOptionBeliefsPooled({ probabilities: pool.rows.slice(0, 2000), labels: pool.labels.slice(0, 2000) });
    expect(cal.width).toBe(0);
    let belief = 0, gold = 0, pairs = 0;
    for (let i = 2000; i < pool.rows.length; i++) {
      predictOptionBeliefs(cal, pool.rows[i]!).forEach((b, j) => {
        expect(b.p0).toBeLessThanOrEqual(b.p1 + 1e-12);
        belief += b.p1 / (1 - b.p0 + b.p1);
        gold += pool.labels[i] === j ? 1 : 0;
        pairs++;
      });
    }
    expect(Math.abs(belief / pairs - gold / pairs)).toBeLessThan(0.01);
  });
});
