// RAPS tuning (Angelopoulos, Bates, Malik & Jordan 2021, §3 and their `pick_kreg` / `pick_lambda_size`):
// on a held-out part of the calibration data, k_reg = the conformal (1−α) quantile of the true label's
// rank, then λ from a fixed grid minimising the mean set size. The rest of the data calibrates.

import { ConformalError, invalid } from "./errors.js";
import { conformalRank } from "./quantile.js";
import { permutation } from "./rng.js";
import type { PackedRows } from "./rowsPacked.js";
import { descendingValues } from "./apsRows.js";
import { selectKth } from "./select.js";
import { minimumN } from "./sampleSize.js";
import type { SetOptions } from "./setTypes.js";

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
  // The rest in ascending order, by marking the tuning rows (a comparison sort of 80,000 indices cost more
  // than the tuning itself).
  const tuned = new Uint8Array(n);
  for (let t = 0; t < nTune; t++) tuned[perm[t]!] = 1;
  const rest = new Int32Array(n - nTune);
  for (let i = 0, r = 0; i < n; i++) if (!tuned[i]) rest[r++] = i;
  if (nTune < minimumN(options.alpha)) return { ...RAPS_DEFAULTS, calibrationIndices: rest };
  const ranks = new Float64Array(nTune);
  const apsScores = new Float64Array(nTune);
  // Per tuning row, its values ranked once: the APS part of the score at every rank (mass above + u·p) and
  // the true label's. The penalty is the only part that depends on λ, so each grid point costs one pass;
  // a set's size needs the scores by rank, not which option holds each rank.
  let total = 0;
  const start = new Int32Array(nTune + 1);
  let widest = 0;
  for (let t = 0; t < nTune; t++) {
    const i = tune[t]!;
    start[t] = total;
    const w = rows.starts ? rows.starts[i + 1]! - rows.starts[i]! : rows.width;
    if (w > widest) widest = w;
    total += w;
  }
  start[nTune] = total;
  const base = new Float64Array(total);
  const rankOf = new Int32Array(total);
  const v = new Float64Array(widest);
  const d = rows.data;
  for (let t = 0; t < nTune; t++) {
    const i = tune[t]!;
    const u = randomized ? rng() : 1;
    const o = rows.starts ? rows.starts[i]! : i * rows.width;
    const w = start[t + 1]! - start[t]!;
    const y = labels[i]!;
    const py = d[o + y]!;
    let r = 0;
    for (let j = 0; j < w; j++) r += +(d[o + j]! > py) + +(d[o + j]! === py && j < y);
    descendingValues(d, o, w, v);
    let mass = 0;
    for (let x = 0; x < w; x++) {
      if (x === r) apsScores[t] = mass + u * py;
      base[start[t]! + x] = mass + u * v[x]! + 0;
      rankOf[start[t]! + x] = x + 1;
      mass += v[x]!;
    }
    ranks[t] = r + 1;
  }
  const kReg = Math.max(0, Math.min(quantileOf(Float64Array.from(ranks), options.alpha), 1e9));
  let best: { lambda: number; size: number } = { lambda: RAPS_DEFAULTS.lambda, size: Infinity };
  const s = new Float64Array(nTune);
  for (const lambda of RAPS_LAMBDA_GRID) {
    for (let t = 0; t < nTune; t++) s[t] = apsScores[t]! + lambda * Math.max(0, ranks[t]! - kReg);
    const q = quantileOf(s.slice(), options.alpha);
    let size = 0;
    for (let x = 0; x < total; x++) if (base[x]! + (lambda > 0 ? lambda * Math.max(0, rankOf[x]! - kReg) : 0) <= q) size++;
    if (size < best.size) best = { lambda, size };
  }
  return { lambda: best.lambda, kReg, calibrationIndices: rest };
}

/** The split-conformal quantile of the scores (conformalQuantile's value), by selection; reorders `scores`. */
function quantileOf(scores: Float64Array, alpha: number): number {
  const k = conformalRank(scores.length, alpha);
  return k > scores.length ? Infinity : k < 1 ? -Infinity : selectKth(scores, k);
}
