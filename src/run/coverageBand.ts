// The finite-sample law of split-conformal test coverage: given n calibration scores at miscoverage α,
// the coverage C of a fresh point is Beta(k, n + 1 − k) with k = ⌈(n+1)(1−α)⌉ (Vovk 2012; Angelopoulos &
// Bates 2021, §C), so the covered count of m test points is beta-binomial. The band is its central
// `level` range, divided by m: where the measured coverage of a seeded split should land.
import { conformalRank, logBeta, logGamma } from "../conformal/index.js";

/** The band's central probability, named wherever a band is shown. */
export const BAND_LEVEL = 0.999;

export function coverageBand(m: number, n: number, alpha: number, level = BAND_LEVEL): [number, number] {
  if (m <= 0) return [0, 1];
  const k = conformalRank(n, alpha);
  if (k > n) return [1, 1]; // too few examples: full sets, coverage 1
  const a = k;
  const b = n + 1 - k;
  const logPmf = (j: number) =>
    logGamma(m + 1) - logGamma(j + 1) - logGamma(m - j + 1) + logBeta(j + a, m - j + b) - logBeta(a, b);
  const tail = (1 - level) / 2;
  let cumulative = 0;
  let lo = 0;
  let hi = m;
  let foundLo = false;
  for (let j = 0; j <= m; j++) {
    cumulative += Math.exp(logPmf(j));
    if (!foundLo && cumulative > tail) {
      lo = j;
      foundLo = true;
    }
    if (cumulative >= 1 - tail) {
      hi = j;
      break;
    }
  }
  return [lo / m, hi / m];
}
