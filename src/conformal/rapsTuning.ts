// RAPS tuning (Angelopoulos, Bates, Malik & Jordan 2021, §3 and their `pick_kreg` / `pick_lambda_size`):
// on a held-out part of the calibration data, k_reg = the conformal (1−α) quantile of the true label's
// rank, then λ from a fixed grid minimising the mean set size. The rest of the data calibrates.

import { ConformalError, invalid } from "./errors.js";
import { conformalQuantile } from "./quantile.js";
import { permutation } from "./rng.js";
import type { PackedRows } from "./rowsPacked.js";
import { optionScores, trueLabelRank, trueLabelScore } from "./setKernels.js";
import { minimumN } from "./sampleSize.js";
import type { SetOptions } from "./setTypes.js";
import { sortAscending } from "./sortFloat.js";

export const RAPS_LAMBDA_GRID: readonly number[] = [0.001, 0.01, 0.1, 0.2, 0.5];
/** Used when the tuning split is too small for a finite quantile (the paper's defaults). */
export const RAPS_DEFAULTS = { lambda: 0.01, kReg: 5 } as const;

export interface RapsTuning {
  readonly lambda: number;
  readonly kReg: number;
  /** Examples left for calibration, ascending (undefined = all). */
  readonly calibrationIndices?: Int32Array;
}

export function tuneRaps(rows: PackedRows, labels: ArrayLike<number>, options: SetOptions, randomized: boolean): RapsTuning {
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
  const n = rows.count;
  const perm = permutation(n, rng);
  const nTune = Math.floor(n * fraction);
  const tune = perm.subarray(0, nTune);
  const rest = Int32Array.from(perm.subarray(nTune)).sort();
  if (nTune < minimumN(options.alpha)) return { ...RAPS_DEFAULTS, calibrationIndices: rest };
  const ranks = new Float64Array(nTune);
  const apsScores = new Float64Array(nTune);
  // Per tuning row, the APS part of every option's score (mass above + u·p) and its rank: the penalty is
  // the only part that depends on λ, so each grid point costs one pass, not a sort per row.
  let total = 0;
  const start = new Int32Array(nTune + 1);
  for (let t = 0; t < nTune; t++) {
    const i = tune[t]!;
    start[t] = total;
    total += rows.starts ? rows.starts[i + 1]! - rows.starts[i]! : rows.width;
  }
  start[nTune] = total;
  const base = new Float64Array(total);
  const rankOf = new Int32Array(total);
  for (let t = 0; t < nTune; t++) {
    const i = tune[t]!;
    const u = randomized ? rng() : 1;
    ranks[t] = trueLabelRank(rows, i, labels[i]!);
    apsScores[t] = trueLabelScore("APS", rows, i, labels[i]!, u, 0, 0);
    const o = rows.starts ? rows.starts[i]! : i * rows.width;
    const w = start[t + 1]! - start[t]!;
    optionScores("APS", rows.data, o, w, u, 0, 0, base, start[t]!);
    for (let j = 0; j < w; j++) rankOf[start[t]! + j] = 1 + countAbove(rows.data, o, w, j);
  }
  const kReg = Math.max(0, Math.min(conformalQuantile(sortAscending(Float64Array.from(ranks)), options.alpha), 1e9));
  let best: { lambda: number; size: number } = { lambda: RAPS_DEFAULTS.lambda, size: Infinity };
  const s = new Float64Array(nTune);
  for (const lambda of RAPS_LAMBDA_GRID) {
    for (let t = 0; t < nTune; t++) s[t] = apsScores[t]! + lambda * Math.max(0, ranks[t]! - kReg);
    const q = conformalQuantile(sortAscending(s.slice()), options.alpha);
    let size = 0;
    for (let x = 0; x < total; x++) if (base[x]! + (lambda > 0 ? lambda * Math.max(0, rankOf[x]! - kReg) : 0) <= q) size++;
    if (size < best.size) best = { lambda, size };
  }
  return { lambda: best.lambda, kReg, calibrationIndices: rest };
}

/** Options ranked above option j (descending probability, lower index first on ties). */
function countAbove(d: Float64Array, o: number, w: number, j: number): number {
  const pj = d[o + j]!;
  let r = 0;
  for (let x = 0; x < w; x++) {
    const p = d[o + x]!;
    if (p > pj || (p === pj && x < j)) r++;
  }
  return r;
}
