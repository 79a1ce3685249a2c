// APS, adaptive prediction sets (Romano, Sesia & Candès 2020): score = probability mass ranked strictly
// above y, plus u·p_y (u ~ U[0,1) randomized, u = 1 non-randomized). Order: descending probability,
// ties broken by the lower option index first, so the score is a deterministic function of the row.

/** Fills order[0..width) with option indices by descending probability (stable on ties). Insertion sort: K is small. */
export function descendingOrder(data: ArrayLike<number>, offset: number, width: number, order: Int32Array): void {
  for (let j = 0; j < width; j++) {
    const p = data[offset + j]!;
    let i = j;
    while (i > 0 && data[offset + order[i - 1]!]! < p) {
      order[i] = order[i - 1]!;
      i--;
    }
    order[i] = j;
  }
}

/** APS score of `label` plus its 1-based rank in the order (rank feeds RAPS). */
export function apsScoreAndRank(
  data: ArrayLike<number>,
  offset: number,
  width: number,
  label: number,
  u: number,
  order: Int32Array,
): { score: number; rank: number } {
  descendingOrder(data, offset, width, order);
  let above = 0;
  for (let r = 0; r < width; r++) {
    const j = order[r]!;
    if (j === label) return { score: above + u * data[offset + j]!, rank: r + 1 };
    above += data[offset + j]!;
  }
  throw new RangeError("label not in row");
}

/** APS (+ RAPS penalty λ·max(0, rank − kReg)) score of every option for one u; out is indexed by option. */
export function apsOptionScores(
  data: ArrayLike<number>,
  offset: number,
  width: number,
  u: number,
  order: Int32Array,
  out: Float64Array,
  lambda = 0,
  kReg = 0,
): void {
  descendingOrder(data, offset, width, order);
  let above = 0;
  for (let r = 0; r < width; r++) {
    const j = order[r]!;
    const p = data[offset + j]!;
    out[j] = above + u * p + (lambda > 0 ? lambda * Math.max(0, r + 1 - kReg) : 0);
    above += p;
  }
}
