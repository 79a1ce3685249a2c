// Fitting the inductive Venn–Abers predictor for every possible test position at once (Vovk, Petej &
// Fedorova 2015 precompute the same table). With the calibration scores pooled into k' distinct values and
// their cumulative sum diagram P_0 = (0,0), P_j = (Σ w, Σ y) (Barlow et al. 1972), adding the test point
// (label y) shifts the points after it by d = (1, y), and the isotonic fit at the test point is the slope of
// the lower bridge between the prefix hull {P_0..P_m} and the shifted suffix hull {P_g + d .. P_k' + d}
// (m = g for a score between two calibration scores, m = g−1 for a score equal to the g-th).
// Prefix hulls come from one left-to-right monotone chain. Suffix hulls come from a right-to-left chain whose
// pushes are recorded and undone one by one (each push overwrites one slot), so both hulls are plain arrays
// at every position, in exact integer geometry. O(n log n) worst case, the sort included: the positions are
// visited left to right (prefix grows by one point, then the suffix loses one), and along that sequence the
// fit never falls (the isotonic fit at the test point is non-decreasing in its score), so the bridge's ends,
// as point indices, never move left: a grown prefix either keeps the bridge or takes the new point as its
// left end, and then the right end can only move right; a suffix that loses the bridge's right end gets a
// steeper bridge, touching the unchanged prefix hull at or right of where it did. Each walk step passes one
// vertex for good, so all bridges together cost O(k) steps per label (counted in the tests at n, 2n, 4n).
// Each bridge is checked; the binary-searched bridge below is the fallback, never taken in the tests.

import { invalid } from "../errors.js";
import { drain } from "../numeric/drain.js";
import { sortAscending, sortAscendingSteps } from "../numeric/sortAscending.js";
import type { CalibratedBelief } from "./beliefTypes.js";
import { bridge, type BridgeState } from "./vennAbersBridgeSearch.js";

// Working arrays reused across synchronous fits (only the fitted tables are new per fit): fresh memory costs
// a page fault per 4 KiB on first touch, which at n = 100,000 took longer than the hull walks. A stepwise fit
// may be interleaved with others, so it gets arrays of its own.
let floatScratch = new Float64Array(0);
let intScratch = new Int32Array(0);
function floats(n: number, reuse: boolean): Float64Array {
  if (!reuse) return new Float64Array(4 * n + 3);
  if (floatScratch.length < 4 * n + 3) floatScratch = new Float64Array(4 * n + 3);
  return floatScratch;
}
function ints(n: number, reuse: boolean): Int32Array {
  if (!reuse) return new Int32Array(4 * n + 4);
  if (intScratch.length < 4 * n + 4) intScratch = new Int32Array(4 * n + 4);
  return intScratch;
}

/** Calibrates Venn–Abers on scores and 0/1 labels (any score scale; larger = more likely 1). */
export function fitVennAbers(scores: ArrayLike<number>, labels: ArrayLike<number | boolean>): CalibratedBelief {
  return drain(fitVennAbersSteps(scores, labels, true));
}

/** Positions fitted (or rows checked) between two yields of the stepwise fit: about a millisecond of work. */
const STEP = 8_192;

/**
 * fitVennAbers in steps: yields after every few thousand positions, so that a caller can spread a large fit
 * over several turns of its event loop (the service rebuilds beliefs in the background). Same result.
 */
export function* fitVennAbersSteps(scores: ArrayLike<number>, labels: ArrayLike<number | boolean>, reuse = false): Generator<void, CalibratedBelief> {
  const n = scores.length;
  if (labels.length !== n) throw invalid(`labels has ${labels.length} entries for ${n} scores`, "labels");
  // The loops are plain functions called from here: a generator's own loops run interpreted until it is called
  // again (no on-stack replacement into a generator), which made a service's first fit after a start 3× slower.
  let ones = 0;
  for (let from = 0; from < n; from += STEP) {
    ones += checkedOnes(scores, labels, from, Math.min(n, from + STEP));
    if (from + STEP < n) yield;
  }
  // Sort each label's scores on its own, then merge while pooling ties: no comparator sort over indices.
  const f = floats(n, reuse);
  const i32 = ints(n, reuse);
  const s0 = f.subarray(0, n - ones);
  const s1 = f.subarray(n - ones, n);
  splitByLabel(scores, labels, s0, s1);
  yield;
  // A sort of a hundred thousand scores takes several ms: in steps unless the fit is run whole (reuse).
  if (reuse) sortAscending(s0);
  else yield* sortAscendingSteps(s0);
  yield;
  if (reuse) sortAscending(s1);
  else yield* sortAscendingSteps(s1);
  yield;
  const xsAll = f.subarray(n, 2 * n);
  const X = f.subarray(2 * n + 1, 3 * n + 2);
  const Y = f.subarray(3 * n + 2, 4 * n + 3);
  const k = cumulativeDiagram(s0, s1, xsAll, X, Y);

  // Suffix hulls, right to left, recording what each push overwrote so that it can be undone.
  const stack = i32.subarray(0, k + 1);
  const topBefore = i32.subarray(k + 1, 2 * k + 2);
  const overwritten = i32.subarray(2 * k + 2, 3 * k + 3);
  let top = 0;
  for (let to = k; to >= 0; to -= STEP) {
    top = suffixHulls(X, Y, to, Math.max(0, to - STEP + 1), top, stack, topBefore, overwritten);
    yield;
  }

  const st: BridgeState = { X, Y, stack, top, hull: i32.subarray(3 * k + 3, 4 * k + 4), h: 0, hintA: new Int32Array(2), hintB: Int32Array.of(k, k), lastA: -1, lastB: -1, lastDy: 0, lastTop: 0 };
  const out: Table = { p0Gap: new Float64Array(k + 1), p1Gap: new Float64Array(k + 1), p0Tie: new Float64Array(k), p1Tie: new Float64Array(k) };
  // Per family (dy = 0, 1): the last bridge as a prefix hull position and a suffix stack index.
  const wa = new Int32Array(2);
  const ws = Int32Array.of(st.top - 1, st.top - 1);
  for (let m = 0; m <= k; m += STEP) {
    fitPositions(st, k, m, Math.min(k + 1, m + STEP), overwritten, topBefore, wa, ws, out);
    yield;
  }
  const { p0Gap, p1Gap, p0Tie, p1Tie } = out;
  return Object.freeze({ kind: "belief" as const, n, xs: xsAll.slice(0, k), p0Gap, p1Gap, p0Tie, p1Tie });
}

/** How many of labels[from, to) are 1, each score and label checked. */
function checkedOnes(scores: ArrayLike<number>, labels: ArrayLike<number | boolean>, from: number, to: number): number {
  let ones = 0;
  for (let i = from; i < to; i++) {
    const s = scores[i]!;
    if (typeof s !== "number" || Number.isNaN(s)) throw invalid(`scores[${i}] must be a number`, `scores[${i}]`);
    const y = labels[i];
    if (!(y === 0 || y === 1 || y === true || y === false)) throw invalid(`labels[${i}] must be 0 or 1`, `labels[${i}]`);
    if (y === 1 || y === true) ones++;
  }
  return ones;
}

function splitByLabel(scores: ArrayLike<number>, labels: ArrayLike<number | boolean>, s0: Float64Array, s1: Float64Array): void {
  for (let i = 0, a = 0, b = 0; i < scores.length; i++) {
    if (labels[i] === 1 || labels[i] === true) s1[b++] = scores[i]!;
    else s0[a++] = scores[i]!;
  }
}

/** The sorted scores merged with ties pooled: distinct values in xs, the diagram's points P_0..P_k in X, Y; returns k. */
function cumulativeDiagram(s0: Float64Array, s1: Float64Array, xs: Float64Array, X: Float64Array, Y: Float64Array): number {
  X[0] = 0;
  Y[0] = 0;
  let k = 0;
  for (let a = 0, b = 0; a < s0.length || b < s1.length; ) {
    const v = b >= s1.length || (a < s0.length && s0[a]! <= s1[b]!) ? s0[a]! : s1[b]!;
    let w = 0;
    let y = 0;
    while (a < s0.length && s0[a] === v) (a++, w++);
    while (b < s1.length && s1[b] === v) (b++, w++, y++);
    xs[k] = v;
    X[k + 1] = X[k]! + w;
    Y[k + 1] = Y[k]! + y;
    k++;
  }
  return k;
}

/** Pushes points g = from, from − 1, …, down to `downTo` onto the suffix hull's stack; returns its new top. */
function suffixHulls(X: Float64Array, Y: Float64Array, from: number, downTo: number, top: number, stack: Int32Array, topBefore: Int32Array, overwritten: Int32Array): number {
  for (let g = from; g >= downTo; g--) {
    topBefore[g] = top;
    while (top >= 2 && cross(X, Y, g, stack[top - 1]!, stack[top - 2]!) <= 0) top--;
    overwritten[g] = stack[top]!;
    stack[top++] = g;
  }
  return top;
}

interface Table {
  readonly p0Gap: Float64Array;
  readonly p1Gap: Float64Array;
  readonly p0Tie: Float64Array;
  readonly p1Tie: Float64Array;
}

/** Positions m in [from, to): the prefix hull grows by P_m, the suffix hull loses P_m (a plain function: the generator's loops ran slower). */
function fitPositions(st: BridgeState, k: number, from: number, to: number, overwritten: Int32Array, topBefore: Int32Array, wa: Int32Array, ws: Int32Array, out: Table): void {
  const { X, Y, stack, hull } = st;
  const { p0Gap, p1Gap, p0Tie, p1Tie } = out;
  for (let m = from; m < to; m++) {
    let h = st.h;
    while (h >= 2 && cross(X, Y, hull[h - 2]!, hull[h - 1]!, m) <= 0) h--;
    hull[h++] = m;
    st.h = h;
    // The suffix hull now starts at g = m.
    p0Gap[m] = walkBridge(st, 0, wa, ws);
    p1Gap[m] = walkBridge(st, 1, wa, ws);
    // Undo the push of m: the suffix hull starts at g = m + 1. A bridge that ended at m restarts at the new left end.
    const oldTop = st.top;
    stack[st.top - 1] = overwritten[m]!;
    st.top = topBefore[m]!;
    for (let dy = 0; dy < 2; dy++) if (ws[dy] === oldTop - 1) ws[dy] = st.top - 1;
    if (m < k) {
      p0Tie[m] = walkBridge(st, 0, wa, ws);
      p1Tie[m] = walkBridge(st, 1, wa, ws);
    }
  }
}

/** Walk steps and fallbacks since the last reset: the test of the O(k) bound counts them at n, 2n, 4n. */
export const counters = { steps: 0, fallbacks: 0 };

/**
 * The bridge found by walking both ends rightwards from the last one (wa, ws per family): the fit never falls
 * as the test point moves right, so neither end ever moves left (header), and every step passes a vertex for
 * good: O(k) steps per family over the whole fit. The answer is checked (all four neighbours on or above the
 * line, which on two convex chains makes it their common support); a failed check, which the argument rules
 * out, would fall back to the searched bridge, so the values never depend on the argument.
 */
function walkBridge(st: BridgeState, dy: number, wa: Int32Array, ws: Int32Array): number {
  const X = st.X;
  const Y = st.Y;
  const hull = st.hull;
  const stack = st.stack;
  const h = st.h;
  const top = st.top;
  let a = Math.min(wa[dy]!, h - 1);
  let s = Math.min(ws[dy]!, top - 1);
  // The bridge from A (prefix) to B (shifted suffix) as the vector (bx, by), kept as the ends move.
  let xA = X[hull[a]!]!;
  let yA = Y[hull[a]!]!;
  let B = stack[s]!;
  let bx = X[B]! + 1 - xA;
  let by = Y[B]! + dy - yA;
  for (;;) {
    if (s > 0) {
      const C = stack[s - 1]!;
      const cx = X[C]! + 1 - xA;
      const cy = Y[C]! + dy - yA;
      if (bx * cy - by * cx < 0) {
        counters.steps++;
        s--;
        B = C;
        bx = cx;
        by = cy;
        continue;
      }
    }
    if (a + 1 < h) {
      const C = hull[a + 1]!;
      if (bx * (Y[C]! - yA) - by * (X[C]! - xA) < 0) {
        counters.steps++;
        a++;
        xA = X[C]!;
        yA = Y[C]!;
        bx = X[B]! + 1 - xA;
        by = Y[B]! + dy - yA;
        continue;
      }
    }
    break;
  }
  const L = a > 0 ? hull[a - 1]! : 0;
  const leftOk = a === 0 || bx * (Y[L]! - yA) - by * (X[L]! - xA) >= 0;
  const D = stack[s + 1]!;
  const rightOk = s === top - 1 || bx * (Y[D]! + dy - yA) - by * (X[D]! + 1 - xA) >= 0;
  if (!(leftOk && rightOk)) {
    counters.fallbacks++;
    return bridge(st, dy);
  }
  wa[dy] = a;
  ws[dy] = s;
  return by / bx;
}

/** (P_b − P_a) × (P_c − P_b): > 0 is a strict left turn (convex from below). */
function cross(X: Float64Array, Y: Float64Array, a: number, b: number, c: number): number {
  return (X[b]! - X[a]!) * (Y[c]! - Y[b]!) - (Y[b]! - Y[a]!) * (X[c]! - X[b]!);
}
