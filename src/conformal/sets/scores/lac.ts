// LAC, "least ambiguous set-valued classifiers" (Sadinle, Lei & Wasserman 2019): score 1 − p_y.

export function lacScore(data: ArrayLike<number>, offset: number, label: number): number {
  return 1 - data[offset + label]!;
}

/** Score of every option (out[j] = 1 − p_j). */
export function lacOptionScores(data: ArrayLike<number>, offset: number, width: number, out: Float64Array): void {
  for (let j = 0; j < width; j++) out[j] = 1 - data[offset + j]!;
}
