// The rows of a growing pool that a calibration rebuilt from scratch uses (Venn–Abers, RAPS, gates with
// fractional losses): the whole pool up to WHOLE_POOL_UP_TO rows, then the rows up to the last step boundary
// but one, in steps of n/16 to n/8 rows and never under MIN_STEP. A function of the pool's size alone, so that
// every instance of the service, and a client reproducing its answers, calibrate on the same rows.

/** Up to this many rows a rebuilt calibration uses the whole pool (Venn–Abers of 2,048 rows: about 1 ms an option). */
export const WHOLE_POOL_UP_TO = 2_048;
/** The smallest step: the prefix moves at most once per MIN_STEP rows, and its build has that long to finish. */
export const MIN_STEP = 1_024;
/**
 * Venn–Abers beliefs use at most this many rows, the last of the prefix: their p0–p1 spread is already
 * O(1/n) ≈ 10⁻⁵ there, and a fit of a million rows costs 1.5–1.9 s where 131,072 cost about 0.2 s.
 */
export const VENN_ABERS_WINDOW = 131_072;

/** 2^(⌊log₂ n⌋ − 3), between n/16 and n/8 (0 at n = 0): how far the prefix moves at a pool of n rows, before MIN_STEP. */
export const sizeStep = (n: number): number => (n > 0 ? 2 ** (Math.floor(Math.log2(n)) - 3) : 0);

const stepOf = (n: number): number => Math.max(MIN_STEP, sizeStep(n));

/** Rows of a pool of n rows that a rebuilt calibration uses. Non-decreasing in n. */
export function rebuildPrefix(n: number): number {
  if (n <= WHOLE_POOL_UP_TO) return n;
  const step = stepOf(n);
  return Math.max(WHOLE_POOL_UP_TO, Math.floor(n / step) * step - step);
}

/** The prefix served once the pool has grown by one more step: complete already, so it can be built now. */
export function nextPrefix(n: number): number {
  if (n <= WHOLE_POOL_UP_TO) return n;
  const step = stepOf(n);
  return Math.floor(n / step) * step;
}
