// Conformal sets for test rows of any number of options (mixed option counts): one calibration, whatever the
// widths it was fitted on, predicts each row over its own options. The rows of one width go through the
// batch API together; row i's u is the i-th draw in row order, whatever its width, so the sets are those the
// per-row API gives with the same draws.

import { ConformalError, invalid, assertKind } from "../errors.js";
import type { Rng } from "../numeric/rng.js";
import { predictSetBatch } from "./columnarApi.js";
import type { CalibratedSet } from "./setTypes.js";
import { encodeGroups } from "../rows/groupCodes.js";

export interface RowSets {
  /** Row i's membership over its own options (1 = in the set). */
  readonly membership: readonly Uint8Array[];
  readonly sizes: Int32Array;
}

/** Sets for rows of any widths; `rng` (one draw per row, in row order) or `uniforms` when randomized. */
export function predictSetRows(cal: CalibratedSet, rows: readonly ArrayLike<number>[], options: { rng?: Rng; uniforms?: ArrayLike<number>; groups?: readonly string[] } = {}): RowSets {
  assertKind(cal, "set", "predictSetRows");
  const count = rows.length;
  let u: ArrayLike<number> | undefined = options.uniforms;
  if (u && u.length !== count) throw invalid(`uniforms has ${u.length} entries for ${count} rows`, "uniforms");
  if (cal.randomized && !u) {
    if (!options.rng) throw new ConformalError("RNG_REQUIRED", `predictSetRows: ${cal.method} is randomized, pass rng or uniforms`, { field: "rng" });
    const draws = new Float64Array(count);
    for (let i = 0; i < count; i++) draws[i] = options.rng();
    u = draws;
  }
  const byWidth = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const w = rows[i]!.length;
    let list = byWidth.get(w);
    if (!list) byWidth.set(w, (list = []));
    list.push(i);
  }
  const membership = new Array<Uint8Array>(count);
  const sizes = new Int32Array(count);
  for (const [w, idx] of byWidth) {
    const data = new Float64Array(idx.length * w);
    idx.forEach((i, t) => data.set(Array.from(rows[i]!), t * w));
    const groups = options.groups ? encodeGroups(idx.map((i) => options.groups![i]!)) : undefined;
    const pred = predictSetBatch(cal, { probabilities: data, width: w, ...(groups ? { groups } : {}) }, cal.randomized ? { uniforms: Float64Array.from(idx, (i) => u![i]!) } : {});
    idx.forEach((i, t) => {
      membership[i] = pred.membership.slice(t * w, (t + 1) * w);
      sizes[i] = pred.sizes[t]!;
    });
  }
  return { membership, sizes };
}

