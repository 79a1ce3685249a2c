// Mondrian calibration (Vovk et al. 2005, ch. 4; crepes' `bins`): scores are split by a stratum key and
// each stratum is calibrated on its own examples, its own n deciding whether its quantile is finite.
// An unseen stratum is an empty one: n = 0, threshold +∞.

import { conformalRank, orderStatistic, sortScores } from "../numeric/orderStatistic.js";
import { sortAscending, sortAscendingSteps } from "../numeric/sortAscending.js";
import { selectKth } from "../numeric/selectKth.js";

/** One calibrated stratum: its ascending scores and the split-conformal threshold at the object's α. */
export interface Stratum {
  readonly n: number;
  /** ⌈(n+1)(1−α)⌉; may exceed n. */
  readonly k: number;
  /** k-th smallest score, +∞ when k > n. */
  readonly threshold: number;
  /** Ascending calibration scores (for p-values and for recalibrating at another α). */
  readonly scores: Float64Array;
}

export function makeStratum(sortedScores: Float64Array, alpha: number): Stratum {
  const k = conformalRank(sortedScores.length, alpha);
  return Object.freeze({ n: sortedScores.length, k, threshold: orderStatistic(sortedScores, k), scores: sortedScores });
}

/** Splits scores by key (in example order) and calibrates every stratum. */
export function buildStrata(scores: Float64Array, keys: readonly string[] | undefined, alpha: number): Map<string, Stratum> {
  const strata = new Map<string, Stratum>();
  if (!keys) {
    strata.set("", makeStratum(sortScores(scores), alpha));
    return strata;
  }
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < scores.length; i++) {
    const key = keys[i]!;
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = []));
    b.push(scores[i]!);
  }
  for (const [key, list] of [...buckets].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    strata.set(key, makeStratum(sortScores(list), alpha));
  }
  return strata;
}

/**
 * A stratum whose threshold comes from selection (O(n)) and whose scores are sorted the first time they are
 * read (p-values, persistence): a LAC calibration at n = 100,000 spent more time sorting than everything else.
 * Takes ownership of `scores`. Equal to makeStratum on the same scores, field by field.
 */
export function makeLazyStratum(scores: Float64Array, alpha: number, kth?: number): Stratum {
  const n = scores.length;
  const k = conformalRank(n, alpha);
  // `kth`: the k-th smallest of `scores`, when the caller selected it already (as selectKth would).
  const threshold = k > n ? Infinity : k < 1 ? -Infinity : kth ?? selectKth(scores, k);
  const lazy = { scores, sorted: false };
  const st = { n, k, threshold } as { n: number; k: number; threshold: number; scores: Float64Array };
  Object.defineProperty(st, "scores", {
    enumerable: true,
    get: () => {
      if (!lazy.sorted) {
        sortAscending(lazy.scores);
        lazy.sorted = true;
      }
      return lazy.scores;
    },
  });
  Object.freeze(st);
  unsorted.set(st, lazy);
  return st;
}

/** A lazy stratum's scores and whether they are sorted yet. */
const unsorted = new WeakMap<Stratum, { scores: Float64Array; sorted: boolean }>();

/**
 * Sorts a lazy stratum's scores in steps (a million take 40–70 ms in one go), for a caller about to read them
 * that can spread the work over turns of its event loop (a checkpoint). A copy is sorted, then put in place: a
 * reader between two steps sorts the scores itself and finds them as they were. Nothing to do for others.
 */
export function* sortLazyScoresSteps(st: Stratum): Generator<void, void> {
  const lazy = unsorted.get(st);
  if (!lazy || lazy.sorted) return;
  const copy = Float64Array.from(lazy.scores);
  yield;
  yield* sortAscendingSteps(copy);
  if (lazy.sorted) return;
  lazy.scores = copy;
  lazy.sorted = true;
}

const EMPTY = new Float64Array(0);

export function stratumOrEmpty(strata: ReadonlyMap<string, Stratum>, key: string, alpha: number): Stratum {
  return strata.get(key) ?? makeStratum(EMPTY, alpha);
}

/** Stratum key: group, and the class for class-conditional calibration; "" when neither applies. */
export function stratumKey(group: string | undefined, classIndex: number | undefined): string {
  const g = group ?? "";
  return classIndex === undefined ? g : `${g}\u001f${classIndex}`;
}

/**
 * Mondrian strata from scores and a slot per score (slot → key given by `keyOf`), or one stratum "" when
 * `slots` is undefined. Buckets by counting sort, sorts each bucket once; the map is in key order.
 */
export function buildStrataBySlot(scores: Float64Array, slots: Int32Array | undefined, slotCount: number, keyOf: (slot: number) => string, alpha: number): Map<string, Stratum> {
  const strata = new Map<string, Stratum>();
  if (!slots) {
    strata.set("", makeLazyStratum(scores, alpha));
    return strata;
  }
  const start = new Int32Array(slotCount + 1);
  for (let i = 0; i < slots.length; i++) start[slots[i]! + 1]!++;
  for (let s = 0; s < slotCount; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, slotCount);
  const bucketed = new Float64Array(scores.length);
  for (let i = 0; i < slots.length; i++) bucketed[fill[slots[i]!]!++] = scores[i]!;
  const entries: [string, Stratum][] = [];
  for (let s = 0; s < slotCount; s++) {
    if (start[s + 1] === start[s]) continue;
    entries.push([keyOf(s), makeLazyStratum(bucketed.slice(start[s]!, start[s + 1]!), alpha)]);
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [k, v] of entries) strata.set(k, v);
  return strata;
}
