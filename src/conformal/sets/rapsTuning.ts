// RAPS tuning (Angelopoulos, Bates, Malik & Jordan 2021, §3 and their `pick_kreg` / `pick_lambda_size`):
// on a held-out part of the calibration data, k_reg = the conformal (1−α) quantile of the true label's
// rank, then λ from a fixed grid minimising the mean set size. The rest of the data calibrates.

import { drain } from "../numeric/drain.js";
import { ConformalError, invalid } from "../errors.js";
import { conformalRank } from "../numeric/orderStatistic.js";
import type { Rng } from "../numeric/rng.js";
import type { PackedRows } from "../rows/packedRows.js";
import { rankRow } from "./rankOptions.js";
import { selectKth } from "../numeric/selectKth.js";
import { minimumN } from "../numeric/sampleSize.js";
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

/** The options' own λ and k_reg (checked), or undefined when they are to be tuned. */
export function fixedRaps(options: SetOptions): { lambda: number; kReg: number } | undefined {
  if (options.lambda === undefined && options.kReg === undefined) return undefined;
  const lambda = options.lambda ?? RAPS_DEFAULTS.lambda;
  const kReg = options.kReg ?? RAPS_DEFAULTS.kReg;
  if (!(lambda >= 0 && Number.isFinite(lambda))) throw invalid(`lambda must be ≥ 0, got ${lambda}`, "lambda");
  if (!(Number.isInteger(kReg) && kReg >= 0)) throw invalid(`kReg must be an integer ≥ 0, got ${kReg}`, "kReg");
  return { lambda, kReg };
}

export interface TuningSplit {
  readonly rng: Rng;
  /** place[i] = 1 + row i's place in the tuning split (its u is the place-th tuning draw); 0: calibrates. */
  readonly place: Int32Array;
  /** The calibrating rows, ascending. */
  readonly rest: Int32Array;
  readonly nTune: number;
  /** False when the split is too small for a finite quantile: the defaults apply, the split is unused. */
  readonly tuned: boolean;
}

/** The random split: a permutation of the rows, its first ⌊n · fraction⌋ tune. */
export function splitForTuning(n: number, options: SetOptions): TuningSplit {
  return drain(splitForTuningSteps(n, options));
}

/** Rows shuffled, placed or listed between two yields of the stepwise forms. */
export const RAPS_STEP = 65_536;

/** splitForTuning in steps (yielding every RAPS_STEP rows of the shuffle and of the split): same draws, same split. */
export function* splitForTuningSteps(n: number, options: SetOptions): Generator<void, TuningSplit> {
  if (!options.rng) throw new ConformalError("RNG_REQUIRED", "RAPS tuning splits the calibration data at random: pass rng (or fixed lambda and kReg)", { field: "rng" });
  const fraction = options.tuningFraction ?? 0.2;
  if (!(fraction > 0 && fraction < 1)) throw invalid(`tuningFraction must be in (0, 1), got ${fraction}`, "tuningFraction");
  const rng = options.rng;
  // permutation(n, rng) of numeric/rng.ts, its Fisher–Yates loop in pieces.
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = n - 1; i > 0; i -= RAPS_STEP) {
    shuffleDown(perm, rng, i, Math.max(0, i - RAPS_STEP));
    yield;
  }
  const nTune = Math.floor(n * fraction);
  // Tuning rows are read in ascending order (in the permutation's order every row missed the cache), so each
  // keeps its place for its u.
  const place = new Int32Array(n);
  for (let t = 0; t < nTune; t++) place[perm[t]!] = t + 1;
  yield;
  const rest = new Int32Array(n - nTune);
  for (let i = 0, r = 0; i < n; i++) if (!place[i]) rest[r++] = i;
  return { rng, place, rest, nTune, tuned: nTune >= minimumN(options.alpha) };
}

/** Fisher–Yates swaps for i = from down to to + 1 (to ≥ 0), as permutation draws them. */
function shuffleDown(p: Int32Array, rng: Rng, from: number, to: number): void {
  for (let i = from; i > to; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = p[i]!;
    p[i] = p[j]!;
    p[j] = t;
  }
}

/**
 * Per tuning row (in ascending row order), its values ranked once: the APS part of the score at every rank
 * (mass above + u·p), row k's at base[start[k] ..], and the true label's with its 1-based rank. The penalty
 * is the only part that depends on λ, so each grid point costs one pass; a set's size needs the scores by
 * rank, not which option holds each rank.
 */
export interface TuningRows {
  readonly base: Float64Array;
  readonly start: Int32Array;
  readonly apsScores: Float64Array;
  readonly ranks: Float64Array;
}

export function tuningRows(nTune: number, total: number): TuningRows {
  return { base: new Float64Array(total), start: new Int32Array(nTune + 1), apsScores: new Float64Array(nTune), ranks: new Float64Array(nTune) };
}

/** Fills tuning row k (start[k] set) from its w values in descending order, its label's rank r, u and p_y. */
export function addTuningRow(tr: TuningRows, k: number, sorted: Float64Array, w: number, r: number, u: number, py: number): void {
  const b = tr.start[k]!;
  let mass = 0;
  for (let x = 0; x < w; x++) {
    if (x === r) tr.apsScores[k] = mass + u * py;
    tr.base[b + x] = mass + u * sorted[x]! + 0;
    mass += sorted[x]!;
  }
  tr.ranks[k] = r + 1;
  tr.start[k + 1] = b + w;
}

/** The u of every tuning row, drawn in the split's order (before any calibrating row's). */
export function tuningDraws(split: TuningSplit, randomized: boolean): Float64Array {
  const u = new Float64Array(split.nTune);
  for (let t = 0; t < u.length; t++) u[t] = randomized ? split.rng() : 1;
  return u;
}

/** λ and k_reg for packed rows of any widths (rows checked): ranks the tuning rows, then picks. */
export function tuneRaps(rows: PackedRows, labels: ArrayLike<number>, options: SetOptions, randomized: boolean): RapsTuning {
  const fixed = fixedRaps(options);
  if (fixed) return fixed;
  const split = splitForTuning(rows.count, options);
  if (!split.tuned) return { ...RAPS_DEFAULTS, calibrationIndices: split.rest };
  const uOf = tuningDraws(split, randomized);
  const widthOf = (i: number) => (rows.starts ? rows.starts[i + 1]! - rows.starts[i]! : rows.width);
  let total = 0;
  let widest = 0;
  for (let i = 0; i < rows.count; i++) {
    if (!split.place[i]) continue;
    total += widthOf(i);
    widest = Math.max(widest, widthOf(i));
  }
  const tr = tuningRows(split.nTune, total);
  const v = new Float64Array(widest);
  const rk = new Int32Array(widest);
  for (let i = 0, k = 0; i < rows.count; i++) {
    if (!split.place[i]) continue;
    const o = rows.starts ? rows.starts[i]! : i * rows.width;
    const w = widthOf(i);
    const y = labels[i]!;
    rankRow(rows.data, o, w, rk, v);
    addTuningRow(tr, k++, v, w, rk[y]!, uOf[split.place[i]! - 1]!, rows.data[o + y]!);
  }
  return { ...pickRaps(tr, options.alpha), calibrationIndices: split.rest };
}

/** k_reg from the tuning rows' label ranks, then the grid's λ with the smallest total set size (first on ties). */
export function pickRaps(tr: TuningRows, alpha: number): { lambda: number; kReg: number } {
  return drain(pickRapsSteps(tr, alpha));
}

/** pickRaps in steps: yields after each grid point. Same result. */
export function* pickRapsSteps(tr: TuningRows, alpha: number): Generator<void, { lambda: number; kReg: number }> {
  const { start, ranks } = tr;
  const nTune = ranks.length;
  const kReg = Math.max(0, Math.min(quantileOf(Float64Array.from(ranks), alpha), 1e9));
  let widest = 0;
  for (let k = 0; k < nTune; k++) widest = Math.max(widest, start[k + 1]! - start[k]!);
  const penAt = new Float64Array(widest);
  let best: { lambda: number; size: number } = { lambda: RAPS_DEFAULTS.lambda, size: Infinity };
  const s = new Float64Array(nTune);
  for (const lambda of RAPS_LAMBDA_GRID) {
    yield;
    const size = gridSize(tr, alpha, kReg, lambda, s, penAt);
    if (size < best.size) best = { lambda, size };
  }
  return { lambda: best.lambda, kReg };
}

/** Total set size over the tuning rows at one λ (s, penAt: scratch of nTune and the widest row). */
function gridSize(tr: TuningRows, alpha: number, kReg: number, lambda: number, s: Float64Array, penAt: Float64Array): number {
  const { base, start, apsScores, ranks } = tr;
  const nTune = ranks.length;
  for (let t = 0; t < nTune; t++) s[t] = apsScores[t]! + lambda * Math.max(0, ranks[t]! - kReg);
  const q = quantileOf(s, alpha);
  // The penalty of rank x + 1, the same in every row.
  for (let x = 0; x < penAt.length; x++) penAt[x] = lambda > 0 ? lambda * Math.max(0, x + 1 - kReg) : 0;
  let size = 0;
  for (let k = 0; k < nTune; k++) {
    const b = start[k]!;
    const w = start[k + 1]! - b;
    for (let x = 0; x < w; x++) size += +(base[b + x]! + penAt[x]! <= q); // branchless: unpredictable
  }
  return size;
}

/** The split-conformal quantile of the scores (conformalQuantile's value), by selection; reorders `scores`. */
function quantileOf(scores: Float64Array, alpha: number): number {
  const k = conformalRank(scores.length, alpha);
  return k > scores.length ? Infinity : k < 1 ? -Infinity : selectKth(scores, k);
}
