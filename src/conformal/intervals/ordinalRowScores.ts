// Score helpers over one row of level probabilities (levels ordered low → high).

/**
 * Quantile levels of the predictive distribution: lo = min{ℓ : F(ℓ) ≥ α/2}, hi = min{ℓ : F(ℓ) ≥ 1 − α/2},
 * median = min{ℓ : F(ℓ) ≥ 1/2}, with F the CDF of the row normalised to sum 1.
 */
export function ordinalCqrBounds(d: ArrayLike<number>, o: number, w: number, alpha: number): { lo: number; hi: number; median: number } {
  let total = 0;
  for (let l = 0; l < w; l++) total += d[o + l]!;
  const a = (alpha / 2) * total;
  const b = (1 - alpha / 2) * total;
  const m = 0.5 * total;
  let lo = -1;
  let hi = -1;
  let median = -1;
  let c = 0;
  for (let l = 0; l < w; l++) {
    c += d[o + l]!;
    if (lo < 0 && c >= a) lo = l;
    if (median < 0 && c >= m) median = l;
    if (hi < 0 && c >= b) hi = l;
  }
  // Rounding can leave the last cumulative sum a hair below b: the top level closes the CDF.
  if (lo < 0) lo = w - 1;
  if (median < 0) median = w - 1;
  if (hi < 0) hi = w - 1;
  return { lo, hi, median };
}

/**
 * Ordinal APS scores: start at the mode (lowest index on ties), then repeatedly add the neighbouring level
 * with the larger probability (the lower level on ties). score(ℓ) = mass added before ℓ + u·p_ℓ, so every
 * set {ℓ : score ≤ q} is a prefix of this order, hence contiguous.
 */
export function ordinalApsScores(d: ArrayLike<number>, o: number, w: number, u: number, out: Float64Array): void {
  let mode = 0;
  for (let l = 1; l < w; l++) if (d[o + l]! > d[o + mode]!) mode = l;
  let left = mode - 1;
  let right = mode + 1;
  let mass = d[o + mode]!;
  out[mode] = u * mass;
  while (left >= 0 || right < w) {
    const takeLeft = right >= w || (left >= 0 && d[o + left]! >= d[o + right]!);
    const l = takeLeft ? left-- : right++;
    const p = d[o + l]!;
    out[l] = mass + u * p;
    mass += p;
  }
}
