// RAPS calibration with tuning (Angelopoulos, Bates, Malik & Jordan 2021) over fixed-width rows in one pass:
// each row is checked and ranked once, in row order, whichever side of the split it falls on. A tuning row
// keeps its scores by rank for the grid; a calibrating row keeps the APS part of its true label's score
// (mass above + u·p_y) and its rank, and gets λ·max(0, rank + 1 − k_reg) once λ and k_reg are known — the
// sum the per-row form (apsTrueScores) computes, term for term. Draws keep the per-row form's order: every
// tuning row's u (in the split's order), then each calibrating row's in ascending order.

import { checkPackedRow, type PackedRows } from "./rowsPacked.js";
import { rankerOf } from "./rankRow.js";
import { badLabel } from "./apsRows.js";
import { addTuningRow, pickRaps, RAPS_DEFAULTS, splitForTuning, tuningDraws, tuningRows } from "./rapsTuning.js";
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
  const n = rows.count;
  const w = rows.width;
  const d = rows.data;
  const split = splitForTuning(n, options);
  const { place, rest, tuned, rng } = split;
  const uOf = tuned ? tuningDraws(split, randomized) : undefined;
  const tr = tuned ? tuningRows(split.nTune, split.nTune * w) : undefined;
  const scores = new Float64Array(rest.length);
  const restRank = new Int32Array(rest.length);
  const v = new Float64Array(w);
  const rk = new Int32Array(w);
  const rank = rankerOf(w);
  for (let i = 0, o = 0, k = 0, t = 0; i < n; i++, o += w) {
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
  const { lambda, kReg } = tr ? pickRaps(tr, options.alpha) : RAPS_DEFAULTS;
  for (let t = 0; t < scores.length; t++) scores[t] = scores[t]! + lambda * Math.max(0, restRank[t]! + 1 - kReg);
  return { lambda, kReg, calibrationIndices: rest, scores };
}
