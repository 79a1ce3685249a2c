// Synthetic data with known truth for the statistical property tests (seeded, deterministic).
import type { Rng } from "../../src/conformal/index.js";

export function gaussian(rng: Rng): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** n rows of K softmax probabilities (logit scale `temp`) and labels drawn from them: a calibrated model. */
export function classificationPool(n: number, K: number, rng: Rng, temp = 2): { data: Float64Array; labels: Int32Array } {
  const data = new Float64Array(n * K);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < K; j++) s += data[i * K + j] = Math.exp(temp * gaussian(rng));
    let u = rng() * s;
    labels[i] = K - 1;
    for (let j = 0; j < K; j++) {
      data[i * K + j]! /= s;
      u -= data[i * K + j]! * s;
      if (u < 0 && labels[i] === K - 1) labels[i] = j;
    }
  }
  return { data, labels };
}

/** Mean and Monte-Carlo standard error of per-trial values. */
export function meanAndSe(values: ArrayLike<number>): { mean: number; se: number } {
  const m = values.length;
  let s = 0;
  for (let i = 0; i < m; i++) s += values[i]!;
  const mean = s / m;
  let v = 0;
  for (let i = 0; i < m; i++) v += (values[i]! - mean) ** 2;
  return { mean, se: Math.sqrt(v / (m - 1) / m) };
}

/** The acceptance band [1−α, 1−α+1/(n+1)] widened by 3 Monte-Carlo SEs. */
export function expectInCoverageBand(values: ArrayLike<number>, alpha: number, n: number, expect: (ok: boolean, msg: string) => void): void {
  const { mean, se } = meanAndSe(values);
  const lo = 1 - alpha - 3 * se;
  const hi = 1 - alpha + 1 / (n + 1) + 3 * se;
  expect(mean >= lo && mean <= hi, `mean coverage ${mean.toFixed(5)} outside [${lo.toFixed(5)}, ${hi.toFixed(5)}] (se ${se.toFixed(5)})`);
}
