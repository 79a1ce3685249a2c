// Ascending sort of doubles for the calibration scores. V8's TypedArray#sort costs about 100–180 ns per
// element at n = 100,000 here, more than the rest of a LAC calibration, so large arrays go through an LSD
// radix sort on the high 32 bits of an order-preserving bit pattern (three 11-bit digits, Knuth vol. 3
// §5.2.5), and the rare runs that share those bits are finished by insertion sort. Same order as
// TypedArray#sort (−∞ … −0, +0 … +∞); NaN must have been refused before.

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const RADIX_FROM = 2048;
const counts = new Uint32Array(3 * 2048);
let scratch = new Uint32Array(0);

/** Sorts `a` ascending in place and returns it. */
export function sortAscending(a: Float64Array): Float64Array {
  if (a.length < RADIX_FROM || !LITTLE_ENDIAN) return a.sort();
  const steps = radixSteps(a, counts, (length) => (scratch.length < length ? (scratch = new Uint32Array(length)) : scratch));
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * sortAscending in steps, yielding between the passes over the array, for a caller that spreads a large sort over
 * several turns of its event loop; with working arrays of its own, as other sorts may run between its steps.
 */
export function* sortAscendingSteps(a: Float64Array): Generator<void, Float64Array> {
  if (a.length < RADIX_FROM || !LITTLE_ENDIAN) return a.sort();
  return yield* radixSteps(a, new Uint32Array(3 * 2048), (length) => new Uint32Array(length));
}

function* radixSteps(a: Float64Array, counts: Uint32Array, scratchOf: (length: number) => Uint32Array): Generator<void, Float64Array> {
  // The passes are plain functions: a generator's own loops run interpreted until it is called again (no
  // on-stack replacement into a generator), which made a service's first fit after a start three times slower.
  const n = a.length;
  const u = new Uint32Array(a.buffer, a.byteOffset, 2 * n);
  counts.fill(0);
  toKeys(u, n, counts);
  yield;
  let src: Uint32Array = u;
  let dst: Uint32Array = scratchOf(2 * n).subarray(0, 2 * n);
  for (let pass = 0; pass < 3; pass++) {
    if (!scatter(src, dst, counts, pass, n)) continue;
    const t = src;
    src = dst;
    dst = t;
    yield;
  }
  fromKeys(src, u, n);
  yield;
  finishTies(a, u, n);
  return a;
}

/** Order-preserving transform: negative numbers get every bit flipped, the others only the sign bit; digit counts. */
function toKeys(u: Uint32Array, n: number, counts: Uint32Array): void {
  for (let i = 0; i < 2 * n; i += 2) {
    let hi = u[i + 1]!;
    if (hi & 0x80000000) {
      hi = ~hi >>> 0;
      u[i] = ~u[i]! >>> 0;
    } else hi = (hi | 0x80000000) >>> 0;
    u[i + 1] = hi;
    counts[hi & 2047]!++;
    counts[2048 + ((hi >>> 11) & 2047)]!++;
    counts[4096 + (hi >>> 22)]!++;
  }
}

/** One pass over the digit `pass` from src into dst; false when every key has the same digit (nothing moves). */
function scatter(src: Uint32Array, dst: Uint32Array, counts: Uint32Array, pass: number, n: number): boolean {
  const base = pass * 2048;
  const shift = pass * 11;
  let sum = 0;
  for (let d = 0; d < 2048; d++) {
    const c = counts[base + d]!;
    if (c === n) return false;
    counts[base + d] = sum;
    sum += c;
  }
  for (let i = 0; i < 2 * n; i += 2) {
    const hi = src[i + 1]!;
    const pos = 2 * counts[base + ((hi >>> shift) & 2047)]!++;
    dst[pos] = src[i]!;
    dst[pos + 1] = hi;
  }
  return true;
}

/** The keys in src back to doubles in u (the sorted array's own memory). */
function fromKeys(src: Uint32Array, u: Uint32Array, n: number): void {
  for (let i = 0; i < 2 * n; i += 2) {
    let lo = src[i]!;
    let hi = src[i + 1]!;
    if (hi & 0x80000000) hi = (hi & 0x7fffffff) >>> 0;
    else {
      hi = ~hi >>> 0;
      lo = ~lo >>> 0;
    }
    u[i] = lo;
    u[i + 1] = hi;
  }
}

/** Keys equal in the high word are adjacent but unordered among themselves: finish them. */
function finishTies(a: Float64Array, u: Uint32Array, n: number): void {
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && u[2 * i + 1] === u[2 * start + 1]) continue;
    if (i - start > 16) a.subarray(start, i).sort();
    else {
      for (let x = start + 1; x < i; x++) {
        const v = a[x]!;
        let y = x;
        while (y > start && a[y - 1]! > v) {
          a[y] = a[y - 1]!;
          y--;
        }
        a[y] = v;
      }
    }
    start = i;
  }
}
