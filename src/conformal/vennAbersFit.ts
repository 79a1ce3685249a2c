// Fitting the inductive Venn–Abers predictor for every possible test position at once.
// With the calibration scores pooled into k' distinct values and their cumulative sum diagram
// P_0 = (0,0), P_j = (Σ w, Σ y) (Barlow et al. 1972), adding the test point (label y) shifts the
// points after it by d = (1, y), and the isotonic fit at the test point is the slope of the lower
// bridge between the prefix hull {P_0..P_m} and the shifted suffix hull {P_g + d .. P_k' + d}
// (m = g for a score between two calibration scores, m = g−1 for a score equal to the g-th).
// Prefix hulls come from one left-to-right monotone chain; suffix hulls are persistent chains
// (next pointers) with binary lifting, so each bridge costs O(log² n) in exact integer geometry.

import { invalid } from "./errors.js";
import type { CalibratedBelief } from "./vennAbers.js";

/** Calibrates Venn–Abers on scores and 0/1 labels (any score scale; larger = more likely 1). */
export function fitVennAbers(scores: ArrayLike<number>, labels: ArrayLike<number | boolean>): CalibratedBelief {
  const n = scores.length;
  if (labels.length !== n) throw invalid(`labels has ${labels.length} entries for ${n} scores`, "labels");
  const idx = new Int32Array(n);
  const xsAll = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = scores[i]!;
    if (typeof s !== "number" || Number.isNaN(s)) throw invalid(`scores[${i}] must be a number`, `scores[${i}]`);
    const y = labels[i];
    if (!(y === 0 || y === 1 || y === true || y === false)) throw invalid(`labels[${i}] must be 0 or 1`, `labels[${i}]`);
    idx[i] = i;
    xsAll[i] = s;
  }
  idx.sort((a, b) => xsAll[a]! - xsAll[b]! || a - b);
  // Pool ties into distinct scores; px/py are the CSD points P_0..P_k' (integers, exact in doubles).
  const xs: number[] = [];
  const px: number[] = [0];
  const py: number[] = [0];
  for (let t = 0; t < n; t++) {
    const i = idx[t]!;
    const y = labels[i] === true || labels[i] === 1 ? 1 : 0;
    if (xs.length && xs[xs.length - 1] === xsAll[i]) {
      px[px.length - 1]!++;
      py[py.length - 1]! += y;
    } else {
      xs.push(xsAll[i]!);
      px.push(px[px.length - 1]! + 1);
      py.push(py[py.length - 1]! + y);
    }
  }
  const k = xs.length;
  const X = Float64Array.from(px);
  const Y = Float64Array.from(py);

  // Suffix lower hulls as persistent chains: next[g] is the hull vertex after P_g in hull{P_g..P_k}.
  const next = new Int32Array(k + 1).fill(-1);
  const stack = new Int32Array(k + 1);
  let top = 0;
  for (let g = k; g >= 0; g--) {
    while (top >= 2 && cross(X, Y, g, stack[top - 1]!, stack[top - 2]!) <= 0) top--;
    next[g] = top > 0 ? stack[top - 1]! : -1;
    stack[top++] = g;
  }
  let levels = 1;
  while (1 << levels <= k + 1) levels++;
  const up: Int32Array[] = [next];
  for (let l = 1; l < levels; l++) {
    const prev = up[l - 1]!;
    const cur = new Int32Array(k + 1);
    for (let v = 0; v <= k; v++) cur[v] = prev[v]! < 0 ? -1 : prev[prev[v]!]!;
    up.push(cur);
  }

  // Tangent point on the suffix chain from g (shifted by (1, dy)) seen from prefix vertex a. No closures:
  // this runs O(n log² n) times.
  const tangent = (a: number, g: number, dy: number): number => {
    const ax = X[a]!;
    const ay = Y[a]!;
    if (!steeperNext(X, Y, next, g, ax, ay, dy)) return g;
    let v = g;
    for (let l = levels - 1; l >= 0; l--) {
      const u = up[l]![v]!;
      if (u >= 0 && steeperNext(X, Y, next, u, ax, ay, dy)) v = u;
    }
    return next[v]!;
  };

  const hull = new Int32Array(k + 1);
  let h = 0;
  const bridge = (g: number, dy: number): number => {
    let lo = 0;
    let hi = h - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const a = hull[mid]!;
      const b = tangent(a, g, dy);
      const c = hull[mid + 1]!;
      // Move right while the next prefix vertex lies strictly below the line from a to its tangent point.
      const ux = X[b]! + 1 - X[a]!;
      const uy = Y[b]! + dy - Y[a]!;
      const vx = X[c]! - X[a]!;
      const vy = Y[c]! - Y[a]!;
      if (ux * vy - uy * vx < 0) lo = mid + 1;
      else hi = mid;
    }
    const a = hull[lo]!;
    const b = tangent(a, g, dy);
    return (Y[b]! + dy - Y[a]!) / (X[b]! + 1 - X[a]!);
  };

  const p0Gap = new Float64Array(k + 1);
  const p1Gap = new Float64Array(k + 1);
  const p0Tie = new Float64Array(k);
  const p1Tie = new Float64Array(k);
  for (let m = 0; m <= k; m++) {
    while (h >= 2 && cross(X, Y, hull[h - 2]!, hull[h - 1]!, m) <= 0) h--;
    hull[h++] = m;
    p0Gap[m] = bridge(m, 0);
    p1Gap[m] = bridge(m, 1);
    if (m < k) {
      p0Tie[m] = bridge(m + 1, 0);
      p1Tie[m] = bridge(m + 1, 1);
    }
  }
  return Object.freeze({ kind: "belief" as const, n, xs: Float64Array.from(xs), p0Gap, p1Gap, p0Tie, p1Tie });
}

/** Whether the chain vertex after v lies strictly below the line from (ax, ay) through P_v + (1, dy). */
function steeperNext(X: Float64Array, Y: Float64Array, next: Int32Array, v: number, ax: number, ay: number, dy: number): boolean {
  const w = next[v]!;
  if (w < 0) return false;
  const ux = X[v]! + 1 - ax;
  const uy = Y[v]! + dy - ay;
  const vx = X[w]! + 1 - ax;
  const vy = Y[w]! + dy - ay;
  return ux * vy - uy * vx < 0;
}

/** (P_b − P_a) × (P_c − P_b): > 0 is a strict left turn (convex from below). */
function cross(X: Float64Array, Y: Float64Array, a: number, b: number, c: number): number {
  return (X[b]! - X[a]!) * (Y[c]! - Y[b]!) - (Y[b]! - Y[a]!) * (X[c]! - X[b]!);
}
