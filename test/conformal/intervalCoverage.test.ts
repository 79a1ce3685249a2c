import { describe, expect, it } from "vitest";
import {
  calibrateInterval,
  calibrateNumericInterval,
  mulberry32,
  ordinalApsScores,
  permutation,
  predictInterval,
  predictNumericInterval,
} from "../../src/conformal/index.js";
import { classificationPool, expectInCoverageBand, gaussian } from "./synthetic.js";

const TRIALS = 1000;
const N = 100;
const M = 40;
const ALPHA = 0.1;
const check = (ok: boolean, msg: string) => expect(ok, msg).toBe(true);

describe("ordinal intervals over 1,000 random splits", () => {
  const L = 7;
  for (const [method, seed] of [["CQR", 11], ["ordinal-aps", 12]] as const) {
    it(`${method}: coverage in the band, intervals contiguous and contain the point estimate`, () => {
      const rng = mulberry32(seed);
      // Unimodal-ish level distributions: softmax of a concave quadratic around a random centre.
      const POOL = 3000;
      const data = new Float64Array(POOL * L);
      const labels = new Int32Array(POOL);
      for (let i = 0; i < POOL; i++) {
        const c = rng() * (L - 1);
        const w = 0.3 + rng();
        let s = 0;
        for (let l = 0; l < L; l++) s += data[i * L + l] = Math.exp(-w * (l - c) ** 2 + 0.5 * gaussian(rng));
        let u = rng() * s;
        labels[i] = L - 1;
        for (let l = 0; l < L; l++) {
          u -= data[i * L + l]!;
          data[i * L + l]! /= s;
          if (u < 0 && labels[i] === L - 1) labels[i] = l;
        }
      }
      const row = (i: number) => data.subarray(i * L, i * L + L);
      const per = new Float64Array(TRIALS);
      for (let t = 0; t < TRIALS; t++) {
        const perm = permutation(POOL, rng);
        const cal = calibrateInterval({ probabilities: Array.from(perm.subarray(0, N), row), labels: Array.from(perm.subarray(0, N), (i) => labels[i]!) }, { method, alpha: ALPHA, rng });
        let hit = 0;
        for (const i of perm.subarray(N, N + M)) {
          const p = predictInterval(cal, { probabilities: row(i) }, rng);
          if (!p.empty) expect(p.pointEstimate >= p.lower && p.pointEstimate <= p.upper).toBe(true);
          if (labels[i]! >= p.lower && labels[i]! <= p.upper) hit++;
        }
        per[t] = hit / M;
      }
      expectInCoverageBand(per, ALPHA, N, check);
    });
  }
  it("ordinal-APS scores grow outward from the mode (so every set is contiguous)", () => {
    const out = new Float64Array(5);
    ordinalApsScores([0.1, 0.3, 0.35, 0.05, 0.2], 0, 5, 1, out);
    // order: 2 (mode), 1 (0.3 vs 0.05), 0 (0.1 vs 0.05), then 3, 4
    expect(Array.from(out).map((x) => +x.toFixed(10))).toEqual([0.75, 0.65, 0.35, 0.8, 1]);
  });
  it("gives names, legend and the median as point estimate", () => {
    const cal = calibrateInterval({ probabilities: [[0.1, 0.8, 0.1]], labels: [1] }, { method: "ordinal-aps", alpha: 0.5, randomized: false });
    const p = predictInterval(cal, { probabilities: [0.2, 0.7, 0.1], levels: ["low", "mid", "high"] });
    expect(p.interval).toEqual(["mid", "mid"]);
    expect(p.point).toBe("mid");
    expect(p.legend).toEqual(["low", "mid", "high"]);
  });
});

describe("numeric CQR over 1,000 random splits", () => {
  it("coverage in the band with a misspecified quantile model (narrowing and widening both happen)", () => {
    const rng = mulberry32(13);
    const POOL = 3000;
    const lo = new Float64Array(POOL);
    const hi = new Float64Array(POOL);
    const y = new Float64Array(POOL);
    for (let i = 0; i < POOL; i++) {
      const x = rng() * 4;
      y[i] = Math.sin(x) + (0.2 + 0.3 * x) * gaussian(rng);
      lo[i] = Math.sin(x) - 0.8; // constant width: too wide for small x, too narrow for large x
      hi[i] = Math.sin(x) + 0.8;
    }
    const per = new Float64Array(TRIALS);
    for (let t = 0; t < TRIALS; t++) {
      const perm = permutation(POOL, rng);
      const c = perm.subarray(0, N);
      const cal = calibrateNumericInterval({ lower: Array.from(c, (i) => lo[i]!), upper: Array.from(c, (i) => hi[i]!), y: Array.from(c, (i) => y[i]!) }, { alpha: ALPHA });
      let hit = 0;
      for (const i of perm.subarray(N, N + M)) {
        const p = predictNumericInterval(cal, { lower: lo[i]!, upper: hi[i]! });
        if (y[i]! >= p.lower && y[i]! <= p.upper) hit++;
      }
      per[t] = hit / M;
    }
    expectInCoverageBand(per, ALPHA, N, check);
  });
});
