// Per-example probability vectors, either as a list of rows (any length each) or one flat K-strided
// Float64Array. Readers take (data, offset, width) so the flat form is never copied.

import { invalid } from "../errors.js";

/** Probabilities per example: `rows[i][j]` = p(option j | example i), or flat `data[i*width + j]`. */
export type ProbabilityRows = readonly ArrayLike<number>[] | { readonly data: ArrayLike<number>; readonly width: number };

export interface RowView {
  readonly count: number;
  data(i: number): ArrayLike<number>;
  offset(i: number): number;
  width(i: number): number;
}

export function rowView(rows: ProbabilityRows, field = "probabilities"): RowView {
  if (Array.isArray(rows)) {
    const list = rows as readonly ArrayLike<number>[];
    return { count: list.length, data: (i) => list[i]!, offset: () => 0, width: (i) => list[i]!.length };
  }
  const flat = rows as { data: ArrayLike<number>; width: number };
  if (!Number.isInteger(flat.width) || flat.width < 1) throw invalid(`${field}.width must be a positive integer`, `${field}.width`);
  if (flat.data.length % flat.width !== 0) {
    throw invalid(`${field}.data length ${flat.data.length} is not a multiple of width ${flat.width}`, `${field}.data`);
  }
  const w = flat.width;
  return { count: flat.data.length / w, data: () => flat.data, offset: (i) => i * w, width: () => w };
}

/** Refuses NaN, negative or infinite probabilities (they have no conformal meaning). */
export function checkProbabilities(data: ArrayLike<number>, offset: number, width: number, field: string): void {
  for (let j = 0; j < width; j++) {
    const p = data[offset + j]!;
    if (!(p >= 0 && p <= Infinity) || p === Infinity) throw invalid(`${field}[${j}] must be a finite number ≥ 0, got ${p}`, `${field}[${j}]`);
  }
}

export function checkLabel(label: number, width: number, field: string): void {
  if (!Number.isInteger(label) || label < 0 || label >= width) {
    throw invalid(`${field} must be an option index in 0..${width - 1}, got ${label}`, field);
  }
}
