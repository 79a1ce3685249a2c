// Probability rows packed into one Float64Array: fixed width K (row i at i·K), or ragged with CSR starts
// (row i at starts[i] .. starts[i+1]). Every set and interval kernel reads this one layout.

import { invalid } from "../errors.js";
import type { ProbabilityRows } from "./probabilityRows.js";

export interface PackedRows {
  readonly data: Float64Array;
  readonly count: number;
  /** Row width when all rows have it; with `starts`, the width of row 0 (0 when there are no rows). */
  readonly width: number;
  /** Row boundaries (count + 1 entries) when rows differ in length; undefined for fixed width. */
  readonly starts: Int32Array | undefined;
}

/** Packs per-example rows (a list, or flat {data, width}) without copying a flat Float64Array. */
export function packRows(rows: ProbabilityRows, field = "probabilities"): PackedRows {
  if (!Array.isArray(rows)) {
    const flat = rows as { data: ArrayLike<number>; width: number };
    if (!Number.isInteger(flat.width) || flat.width < 1) throw invalid(`${field}.width must be a positive integer`, `${field}.width`);
    if (flat.data.length % flat.width !== 0) {
      throw invalid(`${field}.data length ${flat.data.length} is not a multiple of width ${flat.width}`, `${field}.data`);
    }
    const data = flat.data instanceof Float64Array ? flat.data : Float64Array.from(flat.data);
    return { data, count: data.length / flat.width, width: flat.width, starts: undefined };
  }
  const list = rows as readonly ArrayLike<number>[];
  const count = list.length;
  const width = count ? list[0]!.length : 0;
  let total = 0;
  let ragged = false;
  for (let i = 0; i < count; i++) {
    total += list[i]!.length;
    if (list[i]!.length !== width) ragged = true;
  }
  const data = new Float64Array(total);
  const starts = ragged ? new Int32Array(count + 1) : undefined;
  let o = 0;
  for (let i = 0; i < count; i++) {
    const r = list[i]!;
    if (starts) starts[i] = o;
    if (r instanceof Float64Array) data.set(r, o);
    else for (let j = 0; j < r.length; j++) data[o + j] = r[j]!;
    o += r.length;
  }
  if (starts) starts[count] = o;
  return { data, count, width, starts };
}

/** Refuses NaN, negative or infinite entries of row i, naming `${field}[i][j]`. */
export function checkPackedRow(rows: PackedRows, i: number, field: string): void {
  const o = rows.starts ? rows.starts[i]! : i * rows.width;
  const w = rows.starts ? rows.starts[i + 1]! - o : rows.width;
  const d = rows.data;
  for (let j = 0; j < w; j++) {
    const p = d[o + j]!;
    if (!(p >= 0 && p < Infinity)) throw invalid(`${field}[${i}][${j}] must be a finite number ≥ 0, got ${p}`, `${field}[${i}][${j}]`);
  }
}
