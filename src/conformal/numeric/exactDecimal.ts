// Exact arithmetic on levels written as decimals: (9+1)*(1-0.7) is 3.0000000000000004 in floating point,
// so ranks are computed on the decimal the caller wrote (the shortest round-trip string of the double).

export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

/** The decimal a double prints as, as an exact fraction: 0.7 -> 7/10, 1e-7 -> 1/10000000. */
export function decimalFraction(x: number): Fraction {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const text = String(x);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(text);
  if (!m) throw new RangeError(`cannot read ${text} as a decimal`);
  const digits = (m[2] ?? "") + (m[3] ?? "");
  let scale = (m[3] ?? "").length - Number(m[4] ?? "0");
  let num = BigInt(digits);
  if (m[1] === "-") num = -num;
  if (scale <= 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { num, den: 10n ** BigInt(scale) };
}

/** ⌈m · (1 − x)⌉ exactly, for an integer m ≥ 0 and the decimal x. */
export function ceilTimesComplement(m: number, x: number): number {
  const { num, den } = decimalFraction(x);
  const p = BigInt(m) * (den - num);
  return Number(ceilDiv(p, den));
}

/** ⌊m · x⌋ exactly, for an integer m ≥ 0 and the decimal x. */
export function floorTimes(m: number, x: number): number {
  const { num, den } = decimalFraction(x);
  return Number(floorDiv(BigInt(m) * num, den));
}

/** ⌈m · x⌉ exactly. */
export function ceilTimes(m: number, x: number): number {
  const { num, den } = decimalFraction(x);
  return Number(ceilDiv(BigInt(m) * num, den));
}

/** ⌈a / b⌉ for b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

/** ⌊a / b⌋ for b > 0. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}
