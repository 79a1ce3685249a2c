// The `conformal set` predictions (uniform files, the batch path) written as bytes straight into the output's
// chunks: names and keys encoded once, a p-value c/(n + 1)'s text made once per (n, c) and copied after, other
// numbers as ASCII. A string per prediction built from some thirty pieces, then flattened and encoded, cost
// more than the rest of the command's output. The chunk, its position and the texts' table are locals of one
// loop: kept in object fields, each first change of a field's kind deoptimized the loop (seen with --trace-deopt).
import { type JsonOut, num } from "./output.js";

export interface SetRows {
  readonly count: number;
  /** N × K: 1 ⇔ option j is in row i's set. */
  readonly membership: Uint8Array;
  readonly pValues: Float64Array;
  /** Calibration examples behind each row's threshold. */
  readonly n: Int32Array;
  readonly scores?: Float64Array | undefined;
  readonly beliefs?: { readonly p0: Float64Array; readonly p1: Float64Array } | undefined;
}

/** Longest text of num(x): String of a double is at most 24 characters, "-Infinity" quoted 11. */
const NUMBER = 25;
/** The pool stops growing here (start · 32 + length must stay below 2³¹). */
const POOL_MAX = 1 << 25;

/**
 * Copies `length` bytes 4 at a time (a DataView's 32-bit loads and stores, about four times faster here than a
 * byte loop): up to 3 bytes past the end are read and written, so the pool and the chunk keep that slack.
 */
function copy(dst: DataView, at: number, src: DataView, piece: number): number {
  const from = piece >>> 5;
  const length = piece & 31;
  for (let k = 0; k < length; k += 4) dst.setUint32(at + k, src.getUint32(from + k, true), true);
  return at + length;
}

function ascii(dst: Uint8Array, at: number, s: string): number {
  for (let k = 0; k < s.length; k++) dst[at + k] = s.charCodeAt(k);
  return at + s.length;
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** Every piece of text (fixed parts, names, keys, p-value texts) in one buffer, each named by start · 32 + length. */
class TextPool {
  bytes = Buffer.allocUnsafe(1 << 16);
  view = view(this.bytes);
  size = 0;
  /** Texts longer than 31 bytes (long names), written by their bytes: entry -2 - index. */
  readonly long: Buffer[] = [];

  add(text: string): number {
    const b = Buffer.from(text);
    if (b.length > 31) return -2 - (this.long.push(b) - 1);
    if (this.size + b.length + 4 > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(2 * this.bytes.length);
      this.bytes.copy(bigger, 0, 0, this.size);
      this.bytes = bigger;
      this.view = view(bigger);
    }
    b.copy(this.bytes, this.size);
    const e = this.size * 32 + b.length;
    this.size += b.length;
    return e;
  }
}

/** Writes pool entry `e` at `at` of the chunk (`dst`, `view`); returns the end. */
function put(dst: Buffer, view: DataView, at: number, pool: TextPool, e: number): number {
  if (e >= 0) return copy(view, at, pool.view, e);
  const b = pool.long[-2 - e]!;
  b.copy(dst, at);
  return at + b.length;
}

/** Each row's {"set": [...], "p_values": {...}, "scores"?: {...}, "venn_abers"?: {...}} in row order. */
export function writeSetRows(out: JsonOut, names: readonly string[], rows: SetRows): void {
  const K = names.length;
  const pool = new TextPool();
  const OPEN = pool.add('{"set":[');
  const COMMA_OPEN = pool.add(',{"set":[');
  const P_VALUES = pool.add('],"p_values":{');
  const SCORES = pool.add('},"scores":{');
  const VENN_ABERS = pool.add('},"venn_abers":{');
  const CLOSE = pool.add("}}");
  const quoted = Int32Array.from(names, (x) => pool.add(JSON.stringify(x)));
  const commaQuoted = Int32Array.from(names, (x) => pool.add("," + JSON.stringify(x)));
  const keyAt = Int32Array.from(names, (x, j) => pool.add(`${j ? "," : ""}${JSON.stringify(x)}:`));
  const { membership, pValues, scores, beliefs } = rows;
  const perOption = names.reduce((a, x) => a + 3 * Buffer.byteLength(JSON.stringify(x)) + 2, 0);
  const most = 80 + perOption * (1 + (scores ? 1 : 0) + (beliefs ? 1 : 0)) + K * NUMBER * (1 + (scores ? 1 : 0) + (beliefs ? 2 : 0)) + K * 3;
  // p-value texts: per n, their pool entry for c = 0 … n + 1, or -1 while not made.
  const byN = new Map<number, Int32Array>();
  let lastN = -1;
  let table: Int32Array = new Int32Array(0);
  let { buf, at } = out.take();
  let bv = view(buf);
  for (let i = 0; i < rows.count; i++) {
    if (at + most > buf.length) {
      buf = out.give(buf, at, most);
      at = out.written;
      bv = view(buf);
    }
    at = put(buf, bv, at, pool, out.separator() ? COMMA_OPEN : OPEN);
    const m = i * K;
    let first = true;
    for (let j = 0; j < K; j++) {
      if (membership[m + j]) {
        at = put(buf, bv, at, pool, first ? quoted[j]! : commaQuoted[j]!);
        first = false;
      }
    }
    at = put(buf, bv, at, pool, P_VALUES);
    const n = rows.n[i]!;
    if (n !== lastN) {
      let t = byN.get(n);
      if (!t) byN.set(n, (t = new Int32Array(n + 2).fill(-1)));
      table = t;
      lastN = n;
    }
    for (let j = 0; j < K; j++) {
      at = put(buf, bv, at, pool, keyAt[j]!);
      const p = pValues[m + j]!;
      const c = Math.round(p * (n + 1));
      let e = c / (n + 1) === p ? table[c]! : -2; // -2: not of that form (class-conditional: another stratum's n)
      if (e === -1 && pool.size < POOL_MAX) table[c] = e = pool.add(num(p));
      if (e >= 0) at = copy(bv, at, pool.view, e);
      else at = ascii(buf, at, num(p));
    }
    if (scores) {
      at = put(buf, bv, at, pool, SCORES);
      for (let j = 0; j < K; j++) {
        at = put(buf, bv, at, pool, keyAt[j]!);
        at = ascii(buf, at, num(scores[m + j]!));
      }
    }
    if (beliefs) {
      at = put(buf, bv, at, pool, VENN_ABERS);
      for (let j = 0; j < K; j++) {
        at = put(buf, bv, at, pool, keyAt[j]!);
        at = ascii(buf, at, `[${num(beliefs.p0[m + j]!)},${num(beliefs.p1[m + j]!)}]`);
      }
    }
    at = put(buf, bv, at, pool, CLOSE);
  }
  out.give(buf, at);
}
