// The fallback of the Venn–Abers fit's bridge walk (vennAbersFit.ts): the lower bridge between the prefix hull
// and the shifted suffix hull found by galloping binary searches, which the walk's check falls back to (never
// taken in the tests). Kept apart from the walk, which stays beside its caller: the hot loop ran at half speed
// when it called the walk across modules.

export interface BridgeState {
  readonly X: Float64Array;
  readonly Y: Float64Array;
  /** Suffix hull: stack[top − 1] is its leftmost vertex, stack[0] the rightmost. */
  readonly stack: Int32Array;
  top: number;
  /** Prefix hull hull[0..h), left to right. */
  readonly hull: Int32Array;
  h: number;
  /** Per family (dy = 0, 1): prefix hull position and suffix stack index of the last answer. */
  readonly hintA: Int32Array;
  readonly hintB: Int32Array;
  /** The last tangent computed inside this bridge search: prefix vertex → suffix vertex. */
  lastA: number;
  lastB: number;
  lastDy: number;
  lastTop: number;
}

// Both searches look for the end of a run of `true` of a monotone predicate. They gallop from where the
// previous position's answer was (the fit rises with the test score, so answers move little), which
// finds the same boundary as plain bisection in O(1) steps for most positions.

/** The suffix vertex right of the r-th from the left lies strictly below the line from a through it (shifted by (1, dy)). */
function steeper(st: BridgeState, a: number, dy: number, r: number): boolean {
  const { X, Y, stack, top } = st;
  const v = stack[top - 1 - r]!;
  const w = stack[top - 2 - r]!;
  const ux = X[v]! + 1 - X[a]!;
  const uy = Y[v]! + dy - Y[a]!;
  const vx = X[w]! + 1 - X[a]!;
  const vy = Y[w]! + dy - Y[a]!;
  return ux * vy - uy * vx < 0;
}

/** Tangent point from prefix vertex a on the shifted suffix hull, as a position from the left. */
function tangent(st: BridgeState, a: number, dy: number, hint: number): number {
  const last = st.top - 1; // the rightmost vertex has no right neighbour: the predicate is false there
  const r = hint < 0 ? 0 : hint > last ? last : hint;
  let lo: number;
  let hi: number;
  if (r < last && steeper(st, a, dy, r)) {
    lo = r + 1;
    let step = 1;
    for (hi = Math.min(last, r + 1); hi < last && steeper(st, a, dy, hi); hi = Math.min(last, r + step)) (lo = hi + 1, (step *= 2));
  } else {
    hi = r;
    let step = 1;
    for (lo = Math.max(0, r - 1); lo < hi && !steeper(st, a, dy, lo); lo = Math.max(0, r - step)) (hi = lo, (step *= 2));
    if (lo < hi) lo++; // the predicate holds at lo: the boundary lies above it
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (steeper(st, a, dy, mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Suffix vertex touched from prefix vertex a (remembered as the next hint). */
function touch(st: BridgeState, a: number, dy: number): number {
  const r = tangent(st, a, dy, st.top - 1 - st.hintB[dy]!);
  st.hintB[dy] = st.top - 1 - r;
  return st.stack[st.top - 1 - r]!;
}

/** The prefix vertex after hull[i] lies strictly below the line from hull[i] to its tangent point. */
function below(st: BridgeState, i: number, dy: number): boolean {
  const { X, Y, hull } = st;
  const a = hull[i]!;
  const b = touch(st, a, dy);
  st.lastA = a;
  st.lastB = b;
  const c = hull[i + 1]!;
  const ux = X[b]! + 1 - X[a]!;
  const uy = Y[b]! + dy - Y[a]!;
  const vx = X[c]! - X[a]!;
  const vy = Y[c]! - Y[a]!;
  return ux * vy - uy * vx < 0;
}

/** Slope of the lower bridge between the prefix hull and the suffix hull shifted by (1, dy). */
export function bridge(st: BridgeState, dy: number): number {
  st.lastA = -1;
  st.lastDy = dy;
  st.lastTop = st.top;
  const last = st.h - 1;
  const r = Math.min(st.hintA[dy]!, last);
  let lo: number;
  let hi: number;
  if (r < last && below(st, r, dy)) {
    lo = r + 1;
    let step = 1;
    for (hi = Math.min(last, r + 1); hi < last && below(st, hi, dy); hi = Math.min(last, r + step)) (lo = hi + 1, (step *= 2));
  } else {
    hi = r;
    let step = 1;
    for (lo = Math.max(0, r - 1); lo < hi && !below(st, lo, dy); lo = Math.max(0, r - step)) (hi = lo, (step *= 2));
    if (lo < hi) lo++;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (below(st, mid, dy)) lo = mid + 1;
    else hi = mid;
  }
  st.hintA[dy] = lo;
  const a = st.hull[lo]!;
  // The search has usually just touched from this vertex (same hull, same family): reuse that tangent.
  const b = st.lastA === a && st.lastDy === dy && st.lastTop === st.top ? st.lastB : touch(st, a, dy);
  return (st.Y[b]! + dy - st.Y[a]!) / (st.X[b]! + 1 - st.X[a]!);
}
