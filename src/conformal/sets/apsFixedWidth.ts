// Fast paths of the APS / RAPS kernels (Romano, Sesia & Candès 2020; Angelopoulos et al. 2021) for fixed-width
// rows when only membership is asked. The arithmetic is that of scoreKernels.ts, value for value: probability
// mass summed in descending order, the score of rank r being mass + u·p_r (+ λ·max(0, r + 1 − k_reg)).
// Those scores never fall as r rises (each term is monotone and rounding is monotone), so a row's set is its
// top R options, R = the number of ranks whose score is ≤ q̂: one ranking of the row's values (rankOptions.ts),
// one prefix scan that stops at the first rank outside, and one pass naming the options ranked above R. No
// per-option score, no allocation per row.

import { invalid } from "../errors.js";
import { checkPackedRow, type PackedRows } from "../rows/packedRows.js";
import { apsRowOf, rankerOf, SHORT_ROW } from "./rankOptions.js";

let values = new Float64Array(SHORT_ROW);
let ranks = new Int32Array(SHORT_ROW);

/**
 * True-label scores of rows [0, count) for calibration; `draw` gives row i's u. Checks
 * each row's values, then its label, as it reaches them (the order calibrateSetCore's own check names them).
 */
export function apsTrueScores(raps: boolean, rows: PackedRows, labels: ArrayLike<number>, draw: (() => number) | undefined, lambda: number, kReg: number, out: Float64Array): void {
  const d = rows.data;
  const w = rows.width;
  if (values.length < w) values = new Float64Array(w);
  if (ranks.length < w) ranks = new Int32Array(w);
  const v = values;
  const rk = ranks;
  const rank = rankerOf(w);
  for (let i = 0, o = 0; i < out.length; i++, o += w) {
    const y = labels[i]!;
    if (!rank(d, o, rk, v)) checkPackedRow(rows, i, "probabilities");
    if (!(y >= 0 && y < w && Number.isInteger(y))) throw badLabel(i, y, w);
    // The r values ranked above y, summed in descending order.
    const r = rk[y]!;
    let mass = 0;
    for (let x = 0; x < r; x++) mass += v[x]!;
    const u = draw ? draw() : 1;
    const score = mass + u * d[o + y]!;
    out[i] = raps ? score + lambda * Math.max(0, r + 1 - kReg) : score;
  }
}

export function badLabel(i: number, y: number, w: number): Error {
  return invalid(`labels[${i}] must be an option index in 0..${w - 1}, got ${y}`, `labels[${i}]`);
}

/**
 * Membership, sizes and n of fixed-width rows against one threshold per row's stratum (`slotOfRow` picks it).
 * Row i's u is uniforms[i], else the next draw, else 1. Checks each row's probabilities as it reads them.
 */
export function predictApsRows(
  rows: PackedRows, uniforms: Float64Array | undefined, draw: (() => number) | undefined, lambda: number, kReg: number,
  qs: Float64Array, ns: Int32Array, slotOfRow: Int32Array | undefined,
  membership: Uint8Array, sizes: Int32Array, n: Int32Array, thresholds: Float64Array | undefined,
): void {
  const d = rows.data;
  const w = rows.width;
  if (values.length < w) values = new Float64Array(w);
  if (ranks.length < w) ranks = new Int32Array(w);
  const v = values;
  const rk = ranks;
  const row = apsRowOf(w);
  for (let i = 0, o = 0; i < rows.count; i++, o += w) {
    const slot = slotOfRow ? slotOfRow[i]! : 0;
    const q = qs[slot]!;
    const u = uniforms ? uniforms[i]! : draw ? draw() : 1;
    const R = row(d, o, u, q, lambda, kReg, rk, v, membership);
    if (R < 0) checkPackedRow(rows, i, "probabilities");
    sizes[i] = R;
    n[i] = ns[slot]!;
    if (thresholds) thresholds.fill(q, o, o + w);
  }
}
