// Group codes for the columnar APIs: a code per row into a list of distinct names, so strata are matched by
// name once per name, never per row.

import { invalid } from "../errors.js";

/** Group per row as a code into `names` (each name once). */
export interface GroupCodes {
  readonly codes: Int32Array;
  readonly names: readonly string[];
}

/** Codes for a list of group names, in first-seen order. */
export function encodeGroups(groups: ArrayLike<string>, field = "groups"): GroupCodes {
  const index = new Map<string, number>();
  const names: string[] = [];
  const codes = new Int32Array(groups.length);
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    if (typeof g !== "string") throw invalid(`${field}[${i}] must be a string`, `${field}[${i}]`);
    let c = index.get(g);
    if (c === undefined) {
      index.set(g, (c = names.length));
      names.push(g);
    }
    codes[i] = c;
  }
  return { codes, names };
}

export function checkGroupCodes(groups: GroupCodes, count: number): void {
  if (groups.codes.length !== count) throw invalid(`groups has ${groups.codes.length} entries for ${count} probability rows`, "groups");
  if (new Set(groups.names).size !== groups.names.length) throw invalid("groups.names must be distinct", "groups.names");
  for (let i = 0; i < count; i++) {
    const c = groups.codes[i]!;
    if (!(c >= 0 && c < groups.names.length)) throw invalid(`groups.codes[${i}] must be in 0..${groups.names.length - 1}, got ${c}`, `groups.codes[${i}]`);
  }
}

/** Row holding flat index x (CSR starts, ascending). */
export function rowOf(starts: Int32Array, x: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

