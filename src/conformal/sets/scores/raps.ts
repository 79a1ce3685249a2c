// RAPS, regularized adaptive prediction sets (Angelopoulos, Bates, Malik & Jordan 2021): the APS score
// plus λ·max(0, o(y) − k_reg), o(y) the 1-based rank of y, which penalises long tails of unlikely options.

import { apsScoreAndRank } from "./aps.js";

export function rapsScore(
  data: ArrayLike<number>,
  offset: number,
  width: number,
  label: number,
  u: number,
  lambda: number,
  kReg: number,
  order: Int32Array,
): number {
  const { score, rank } = apsScoreAndRank(data, offset, width, label, u, order);
  return score + lambda * Math.max(0, rank - kReg);
}

export { apsOptionScores as rapsOptionScores } from "./aps.js";
