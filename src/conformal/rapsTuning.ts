// RAPS tuning (Angelopoulos, Bates, Malik & Jordan 2021, §3 and their `pick_kreg` / `pick_lambda_size`):
// on a held-out part of the calibration data, k_reg = the conformal (1−α) quantile of the true label's
// rank, then λ from a fixed grid minimising the mean set size. The rest of the data calibrates.

import { ConformalError, invalid } from "./errors.js";
import { conformalQuantile, sortScores } from "./quantile.js";
import { permutation } from "./rng.js";
import { rowView } from "./rows.js";
import { apsOptionScores, apsScoreAndRank } from "./scores/aps.js";
import { minimumN } from "./sampleSize.js";
import type { SetExamples, SetOptions } from "./set.js";

export const RAPS_LAMBDA_GRID: readonly number[] = [0.001, 0.01, 0.1, 0.2, 0.5];
/** Used when the tuning split is too small for a finite quantile (the paper's defaults). */
export const RAPS_DEFAULTS = { lambda: 0.01, kReg: 5 } as const;

export interface RapsTuning {
  readonly lambda: number;
  readonly kReg: number;
  /** Examples left for calibration, ascending (undefined = all). */
  readonly calibrationIndices?: Int32Array;
}

export function tuneRaps(examples: SetExamples, options: SetOptions, randomized: boolean): RapsTuning {
  const view = rowView(examples.probabilities);
  if (options.lambda !== undefined || options.kReg !== undefined) {
    const lambda = options.lambda ?? RAPS_DEFAULTS.lambda;
    const kReg = options.kReg ?? RAPS_DEFAULTS.kReg;
    if (!(lambda >= 0 && Number.isFinite(lambda))) throw invalid(`lambda must be ≥ 0, got ${lambda}`, "lambda");
    if (!(Number.isInteger(kReg) && kReg >= 0)) throw invalid(`kReg must be an integer ≥ 0, got ${kReg}`, "kReg");
    return { lambda, kReg };
  }
  if (!options.rng) throw new ConformalError("RNG_REQUIRED", "RAPS tuning splits the calibration data at random: pass rng (or fixed lambda and kReg)", { field: "rng" });
  const rng = options.rng;
  const fraction = options.tuningFraction ?? 0.2;
  if (!(fraction > 0 && fraction < 1)) throw invalid(`tuningFraction must be in (0, 1), got ${fraction}`, "tuningFraction");
  const n = view.count;
  const perm = permutation(n, rng);
  const nTune = Math.floor(n * fraction);
  const tune = perm.subarray(0, nTune);
  const rest = Int32Array.from(perm.subarray(nTune)).sort();
  if (nTune < minimumN(options.alpha)) return { ...RAPS_DEFAULTS, calibrationIndices: rest };
  let order = new Int32Array(16);
  const ranks = new Float64Array(nTune);
  const apsScores = new Float64Array(nTune);
  const us = new Float64Array(nTune);
  for (let t = 0; t < nTune; t++) {
    const i = tune[t]!;
    const w = view.width(i);
    if (order.length < w) order = new Int32Array(w);
    us[t] = randomized ? rng() : 1;
    const r = apsScoreAndRank(view.data(i), view.offset(i), w, examples.labels[i]!, us[t]!, order);
    ranks[t] = r.rank;
    apsScores[t] = r.score;
  }
  const kReg = Math.max(0, Math.min(conformalQuantile(sortScores(ranks), options.alpha), 1e9));
  let best: { lambda: number; size: number } = { lambda: RAPS_DEFAULTS.lambda, size: Infinity };
  let scratch = new Float64Array(16);
  for (const lambda of RAPS_LAMBDA_GRID) {
    const s = new Float64Array(nTune);
    for (let t = 0; t < nTune; t++) s[t] = apsScores[t]! + lambda * Math.max(0, ranks[t]! - kReg);
    const q = conformalQuantile(sortScores(s), options.alpha);
    let size = 0;
    for (let t = 0; t < nTune; t++) {
      const i = tune[t]!;
      const w = view.width(i);
      if (scratch.length < w) scratch = new Float64Array(w);
      apsOptionScores(view.data(i), view.offset(i), w, us[t]!, order, scratch, lambda, kReg);
      for (let j = 0; j < w; j++) if (scratch[j]! <= q) size++;
    }
    if (size < best.size) best = { lambda, size };
  }
  return { lambda: best.lambda, kReg, calibrationIndices: rest };
}
