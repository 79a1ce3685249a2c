// JSON numbers read straight from the bytes of a line, correctly rounded: the same double JSON.parse gives,
// without making a string. Up to 15 significant digits the decimal mantissa is exact and one multiplication or
// division by an exact power of ten rounds correctly (Clinger, "How to read floating point numbers
// accurately", 1990). Up to 19 digits the value is formed in double-double arithmetic (Dekker, "A
// floating-point technique for extending the available precision", 1971) to about 2⁻¹⁰⁴ relative error, and
// accepted only when every value within 2⁻⁹⁰ of it rounds to the same double; anything else (ties, more
// digits, far exponents) is handed to Number() on the token's text.

const POW10 = new Float64Array(23).map((_, k) => Number(`1e${k}`)); // exact doubles up to 10²²
const SPLIT = 134217729; // 2²⁷ + 1: Dekker's splitter
const WIDTH = 2 ** -90;
/** A DataView of the last buffer read (the reader reuses one buffer for every line). */
let viewOf: Uint8Array | undefined;
let view: DataView = new DataView(new ArrayBuffer(0));

/**
 * Reads the JSON number token at `i` (before `end`) into out[at]; returns the index after it, or -1 when the
 * bytes there are not a JSON number. The caller checks what follows (a delimiter).
 * One function with local variables: helpers returning two values through module state cost a third more.
 */
export function readNumber(b: Uint8Array, i: number, end: number, out: Float64Array, at: number): number {
  const start = i;
  let neg = false;
  if (i < end && b[i] === 45) {
    neg = true;
    i++;
  }
  if (i >= end) return -1;
  let c = b[i]!;
  if (c < 48 || c > 57) return -1;
  let a = 0; // the first 15 significant digits
  let r = 0; // the next ones, up to 4
  let digits = 0; // significant digits
  let q = 0; // the decimal exponent of the last digit kept
  // `(byte - 48) >>> 0 > 9`: one comparison says "not a digit" (below "0" wraps to a large number).
  if (c === 48) i++;
  else {
    const s0 = i;
    for (; i < end; i++) {
      const d = b[i]! - 48;
      if (d >>> 0 > 9) break;
      const k = i - s0;
      if (k < 15) a = a * 10 + d;
      else if (k < 19) r = r * 10 + d;
    }
    digits = i - s0;
    if (digits > 19) q = digits - 19; // dropped digits (the slow path below reads the text anyway)
  }
  if (i < end && b[i] === 46) {
    const first = ++i;
    if (digits === 0) while (i < end && b[i] === 48) i++;
    const zeros = i - first;
    const s1 = i;
    // Four digits at a time while they all go into `a`: a 32-bit load, a check that each byte is a digit,
    // and two multiply-adds pairing them (SWAR digit parsing, as in Lemire's fast_float). Then one at a time.
    if (i + 4 <= end && digits + 4 <= 15) {
      if (b !== viewOf) (viewOf = b), (view = new DataView(b.buffer, b.byteOffset, b.byteLength));
      while (i + 4 <= end && digits + (i - s1) + 4 <= 15) {
        const w = view.getUint32(i, true);
        if ((w & 0xf0f0f0f0) !== 0x30303030 || ((w + 0x06060606) & 0xf0f0f0f0) !== 0x30303030) break;
        let x = (w - 0x30303030) | 0; // bytes d0 d1 d2 d3, the first digit lowest
        x = (Math.imul(x, 10) + (x >>> 8)) & 0x00ff00ff; // d0d1, d2d3
        x = (Math.imul(x, 100) + (x >>> 16)) & 0x3fff; // d0d1d2d3
        a = a * 10000 + x;
        i += 4;
      }
    }
    for (; i < end; i++) {
      const d = b[i]! - 48;
      if (d >>> 0 > 9) break;
      const k = digits + i - s1;
      if (k < 15) a = a * 10 + d;
      else if (k < 19) r = r * 10 + d;
    }
    if (i === first) return -1;
    const f = i - s1;
    q -= zeros + (digits >= 19 ? 0 : f < 19 - digits ? f : 19 - digits);
    digits += f;
  }
  const nr = digits <= 15 ? 0 : digits >= 19 ? 4 : digits - 15;
  let slow = digits > 19;
  if (i < end && (b[i] === 101 || b[i] === 69)) {
    i++;
    let eneg = false;
    if (i < end && (b[i] === 43 || b[i] === 45)) eneg = b[i++] === 45;
    const first = i;
    let x = 0;
    for (; i < end; i++) {
      c = b[i]!;
      if (c < 48 || c > 57) break;
      x = x * 10 + (c - 48);
    }
    if (i === first) return -1;
    if (i - first > 6) slow = true;
    q += eneg ? -x : x;
  }
  let v: number;
  if (slow || q > 22 || q < -44) v = NaN;
  else if (a === 0) v = 0;
  else if (nr === 0 && q >= -22) v = q >= 0 ? a * POW10[q]! : a / POW10[-q]!;
  else {
    // The mantissa a·10^nr + r as a double-double (h, l): Dekker's exact product, then r added.
    const m = POW10[nr]!;
    let p = a * m;
    let t = SPLIT * a;
    let xh = t - (t - a);
    let xl = a - xh;
    t = SPLIT * m;
    let dh = t - (t - m);
    let dl = m - dh;
    let e = xh * dh - p + xh * dl + xl * dh + xl * dl;
    let h = p + r;
    let l = e + (r - (h - p));
    const s = h + l;
    l -= s - h;
    h = s;
    if (q >= 0) {
      const d = POW10[q]!;
      p = h * d;
      t = SPLIT * h;
      xh = t - (t - h);
      xl = h - xh;
      t = SPLIT * d;
      dh = t - (t - d);
      dl = d - dh;
      e = xh * dh - p + xh * dl + xl * dh + xl * dl + l * d;
      h = p + e;
      l = e - (h - p);
    } else {
      for (let k = -q; k > 0; k -= 22) {
        // (h, l) / d: the quotient's first double, its exact product with d, the remainder's quotient.
        const d = POW10[k > 22 ? 22 : k]!;
        const q1 = h / d;
        p = q1 * d;
        t = SPLIT * q1;
        xh = t - (t - q1);
        xl = q1 - xh;
        t = SPLIT * d;
        dh = t - (t - d);
        dl = d - dh;
        e = xh * dh - p + xh * dl + xl * dh + xl * dl;
        const q2 = (h - p - e + l) / d;
        h = q1 + q2;
        l = q2 - (h - q1);
      }
    }
    // Correct only if every value within the error bound rounds alike; else (a tie, or too close) V8 decides.
    const w = Math.abs(h) * WIDTH;
    v = h + (l - w);
    if (v !== h + (l + w)) v = NaN;
  }
  if (v !== v) v = Number(Buffer.from(b.buffer, b.byteOffset + start, i - start).toString("latin1"));
  else if (neg) v = -v;
  out[at] = v;
  return i;
}
