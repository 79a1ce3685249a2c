// RAPS calibration with tuning (Angelopoulos, Bates, Malik & Jordan 2021) over fixed-width rows in one pass:
// each row is checked and ranked once, in row order, whichever side of the split it falls on. A tuning row
// keeps its scores by rank for the grid; a calibrating row keeps the APS part of its true label's score
// (mass above + u·p_y) and its rank, and gets λ·max(0, rank + 1 − k_reg) once λ and k_reg are known — the
// sum the per-row form (apsTrueScores) computes, term for term. Draws keep the per-row form's order: every
// tuning row's u (in the split's order), then each calibrating row's in ascending order.

import { drain } from "../numeric/drain.js";
import { checkPackedRow, type PackedRows } from "../rows/packedRows.js";
import { rankerOf } from "./rankOptions.js";
import { badLabel } from "./apsFixedWidth.js";
import {
  addTuningRow, pickRapsSteps, RAPS_DEFAULTS, RAPS_STEP, splitForTuningSteps, tuningDraws, tuningRows, type TuningRows, type TuningSplit,
} from "./rapsTuning.js";
import type { SetOptions } from "./setTypes.js";

export interface RapsCalibration {
  readonly lambda: number;
  readonly kReg: number;
  /** Examples left for calibration, ascending. */
  readonly calibrationIndices: Int32Array;
  /** Their true-label scores, in that order. */
  readonly scores: Float64Array;
}

/** Tunes λ and k_reg on a random split and scores the rest; checks every row (values, then label) in row order. */
export function calibrateRapsRows(rows: PackedRows, labels: ArrayLike<number>, options: SetOptions, randomized: boolean): RapsCalibration {
  return drain(calibrateRapsRowsSteps(rows, labels, options, randomized));
}

/**
 * calibrateRapsRows in steps: yields every RAPS_STEP rows (of the split, of the scoring pass) and after each grid
 * point of the tuning, so that a caller can spread a calibration of a million rows over many turns of its event
 * loop (the service rebuilds RAPS in the background). Same draws in the same order, same result.
 */
export function* calibrateRapsRowsSteps(rows: PackedRows, labels: ArrayLike<number>, options: SetOptions, randomized: boolean): Generator<void, RapsCalibration> {
  const n = rows.count;
  const split = yield* splitForTuningSteps(n, options);
  const { tuned } = split;
  const pass: Pass = {
    rows, labels, split, randomized, uOf: tuned ? tuningDraws(split, randomized) : undefined,
    tr: tuned ? tuningRows(split.nTune, split.nTune * rows.width) : undefined,
    scores: new Float64Array(split.rest.length), restRank: new Int32Array(split.rest.length), k: 0, t: 0,
  };
  for (let i = 0; i < n; i += RAPS_STEP) {
    yield;
    scoreRows(pass, i, Math.min(n, i + RAPS_STEP));
  }
  const { lambda, kReg } = pass.tr ? yield* pickRapsSteps(pass.tr, options.alpha) : RAPS_DEFAULTS;
  const { scores, restRank } = pass;
  for (let t = 0; t < scores.length; t++) scores[t] = scores[t]! + lambda * Math.max(0, restRank[t]! + 1 - kReg);
  return { lambda, kReg, calibrationIndices: split.rest, scores };
}

/** The scoring pass's state between pieces: k tuning rows and t calibrating rows done. */
interface Pass {
  readonly rows: PackedRows;
  readonly labels: ArrayLike<number>;
  readonly split: TuningSplit;
  readonly randomized: boolean;
  readonly uOf: Float64Array | undefined;
  readonly tr: TuningRows | undefined;
  readonly scores: Float64Array;
  readonly restRank: Int32Array;
  k: number;
  t: number;
}

/** Checks and ranks rows from … to − 1: a tuning row joins the tuning rows, a calibrating row gets its APS part and rank. */
function scoreRows(pass: Pass, from: number, to: number): void {
  const { rows, labels, split, randomized, uOf, tr, scores, restRank } = pass;
  const w = rows.width;
  const d = rows.data;
  const { place, rng } = split;
  const v = new Float64Array(w);
  const rk = new Int32Array(w);
  const rank = rankerOf(w);
  let { k, t } = pass;
  for (let i = from, o = from * w; i < to; i++, o += w) {
    const y = labels[i]!;
    if (!rank(d, o, rk, v)) checkPackedRow(rows, i, "probabilities");
    if (!(y >= 0 && y < w && Number.isInteger(y))) throw badLabel(i, y, w);
    const r = rk[y]!;
    const p = place[i]!;
    if (p) {
      if (tr) addTuningRow(tr, k++, v, w, r, uOf![p - 1]!, d[o + y]!);
      continue;
    }
    let mass = 0;
    for (let x = 0; x < r; x++) mass += v[x]!;
    const u = randomized ? rng() : 1;
    scores[t] = mass + u * d[o + y]!;
    restRank[t++] = r;
  }
  pass.k = k;
  pass.t = t;
}
