// The calibration pools a profile's examples can feed, made as the examples arrive rather than at the first
// query that asks: a pool is a column of numbers a checkpoint keeps, so a start after a checkpoint that has
// it serves the query without reading a million example documents back from the store (docs/storage.md).
// Each batch extends them by its own examples only (O(batch)).
import type { ExampleRecord } from "../../api/index.js";
import { hasPool, probabilityPool } from "../engine/pools.js";
import type { ProfileState } from "./profileState.js";

/** Pools a profile gets ahead of queries: examples of many shapes (judge candidates) would otherwise make one each. */
const MAX_EAGER = 16;

const known = new WeakMap<ProfileState, Set<string>>();

type PoolSpec = { names: readonly string[]; levels?: boolean; grouped: boolean; booleanNames?: [string, string] };

/** The pools a query would ask for over the evidence names of one example. */
function specsOf(state: ProfileState, example: ExampleRecord): PoolSpec[] {
  const evidence = example.metadata?.evidence as { option_probabilities?: unknown; level_probabilities?: unknown } | undefined;
  const specs: PoolSpec[] = [];
  if (evidence?.option_probabilities && typeof evidence.option_probabilities === "object") {
    const names = Object.keys(evidence.option_probabilities).sort();
    specs.push({ names, grouped: false });
    if (state.meta.group_by) specs.push({ names, grouped: true });
    // Belief and gate queries read two-name evidence with boolean labels spelled yes / no or pass / fail.
    if (names.length === 2 && names[0] === "no" && names[1] === "yes") specs.push({ names, grouped: false, booleanNames: ["yes", "no"] });
    if (names.length === 2 && names[0] === "fail" && names[1] === "pass") specs.push({ names, grouped: false, booleanNames: ["pass", "fail"] });
  }
  if (evidence?.level_probabilities && typeof evidence.level_probabilities === "object") {
    specs.push({ names: Object.keys(evidence.level_probabilities), levels: true, grouped: false });
  }
  return specs;
}

/** The evidence's names as given (order included): examples of one shape have the same specs. */
function shapeOf(example: ExampleRecord): string {
  const evidence = example.metadata?.evidence as { option_probabilities?: unknown; level_probabilities?: unknown } | undefined;
  const names = (map: unknown) => (map && typeof map === "object" ? Object.keys(map).join("\u0000") : "\u0001");
  return `${names(evidence?.option_probabilities)}\u0002${names(evidence?.level_probabilities)}`;
}

/**
 * Brings every pool the batch's examples can feed up to date, making those that are new while the profile has
 * fewer than MAX_EAGER name sets.
 */
export function feedPools(state: ProfileState, examples: readonly ExampleRecord[]): void {
  let seen = known.get(state);
  if (!seen) known.set(state, (seen = new Set()));
  const batchKeys = new Set<string>();
  // Examples of a batch mostly share their evidence's names: their pools are looked at once per shape.
  const shapes = new Set<string>();
  for (const example of examples) {
    const shape = shapeOf(example);
    if (shapes.has(shape)) continue;
    shapes.add(shape);
    for (const spec of specsOf(state, example)) {
      const key = `${spec.levels ? "L" : "O"}|${spec.grouped}|${spec.booleanNames?.[0] ?? ""}|${spec.names.join("\u0000")}`;
      if (batchKeys.has(key)) continue;
      batchKeys.add(key);
      if (!seen.has(key)) {
        if (seen.size >= MAX_EAGER) continue;
        seen.add(key);
      }
      // A new pool scans the profile from its first example: after a start from a checkpoint without it, those
      // are in the store only, and the first query that needs the pool reads them (as before).
      if (!state.examplesHeld && !hasPool(state, spec.names, spec)) continue;
      probabilityPool(state, spec.names, spec);
    }
  }
}
