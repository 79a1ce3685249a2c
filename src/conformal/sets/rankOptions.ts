// Ranking one row of option probabilities by descending value, the step every APS / RAPS kernel
// (Romano, Sesia & Candès 2020) starts from. A row of up to 16 options is ranked by one compare per pair of
// options, over locals, in code written out for its width once and compiled by the engine: in V8 a loop over
// a short row costs more in loop control (a bounds check and an interrupt check per turn, a mispredicted exit
// when trip counts vary) than its compares, and the written-out pairs rank a 10-option row in about a third
// of the time of counting loops. Pair (x < j): c = [p_x ≥ p_j] adds c to j's rank and 1 − c to x's, which is
// exactly "the lower index first on ties". Wider rows, or an engine that refuses to compile code from text,
// get an insertion sort.

/** Widest row ranked by written-out pairs (16 options: 120 pairs). */
export const SHORT_ROW = 16;

/** Ranks row d[o .. o + width) (see rankRow); false when a value is not a finite number ≥ 0. */
export type Ranker = (d: Float64Array, o: number, rank: Int32Array, sorted: Float64Array) => boolean;

const rankers: (Ranker | null | undefined)[] = [];

/** The ranker of rows of width w: take it once per batch, call it per row. */
export function rankerOf(w: number): Ranker {
  const f = w <= SHORT_ROW ? (rankers[w] !== undefined ? rankers[w] : (rankers[w] = compile(rankerLines(w), "rank", "sorted") as Ranker | null)) : null;
  return f ?? ((d, o, rank, sorted) => rankByInsertion(d, o, w, rank, sorted));
}

/**
 * Ranks row d[o .. o+w): rank[j] = option j's 0-based rank by descending value, the lower index first on
 * ties, and sorted[r] = the value of rank r. Returns false, having ranked nothing sure, when a value is not
 * a finite number ≥ 0 (the caller names it); rank and sorted need w entries.
 */
export function rankRow(d: Float64Array, o: number, w: number, rank: Int32Array, sorted: Float64Array): boolean {
  return rankerOf(w)(d, o, rank, sorted);
}

/**
 * One APS / RAPS prediction row (apsFixedWidth.ts): ranks row d[o .. o + width), writes m[o + j] = 1 for the options
 * ranked above R and returns R, the number of leading ranks whose score mass + u·p + λ·max(0, rank + 1 − k_reg)
 * is ≤ q (λ = pen, no penalty term when pen is 0); −1 when a value is not a finite number ≥ 0.
 */
export type ApsRow = (d: Float64Array, o: number, u: number, q: number, pen: number, kReg: number, rank: Int32Array, sorted: Float64Array, m: Uint8Array) => number;

const apsRowCode: (ApsRow | null | undefined)[] = [];

/** The APS / RAPS prediction row of width w: take it once per batch, call it per row. */
export function apsRowOf(w: number): ApsRow {
  const f = w <= SHORT_ROW ? (apsRowCode[w] !== undefined ? apsRowCode[w] : (apsRowCode[w] = compile(apsRowLines(w), "u", "q", "pen", "kReg", "rank", "sorted", "m") as ApsRow | null)) : null;
  return f ?? ((d, o, u, q, pen, kReg, rank, sorted, m) => apsRowByLoops(d, o, w, u, q, pen, kReg, rank, sorted, m));
}

/** The loop form of ApsRow (wide rows, or no compiled code); the written-out form does the same arithmetic. */
export function apsRowByLoops(d: Float64Array, o: number, w: number, u: number, q: number, pen: number, kReg: number, rank: Int32Array, sorted: Float64Array, m: Uint8Array): number {
  if (!rankByInsertion(d, o, w, rank, sorted)) return -1;
  let mass = 0;
  let R = 0;
  for (; R < w; R++) {
    const p = sorted[R]!;
    if (!(mass + u * p + (pen > 0 ? pen * Math.max(0, R + 1 - kReg) : 0) <= q)) break;
    mass += p;
  }
  for (let j = 0; j < w; j++) m[o + j] = +(rank[j]! < R);
  return R;
}

/** Loads a0 .. a(w−1), refuses (`bad`) a value that is not a finite number ≥ 0, counts ranks r0 .. r(w−1). */
function rankingLines(w: number, bad: string): string[] {
  const js = Array.from({ length: w }, (_, j) => j);
  const lines = [
    ...js.map((j) => `const a${j} = d[o + ${j}];`),
    `if (!(${js.map((j) => `a${j} >= 0 && a${j} < Infinity`).join(" && ") || "true"})) return ${bad};`,
    ...js.map((j) => `let r${j} = 0;`),
    "let c = 0;",
  ];
  for (let j = 1; j < w; j++) for (let x = 0; x < j; x++) lines.push(`c = +(a${x} >= a${j}); r${j} += c; r${x} += 1 - c;`);
  return lines;
}

function rankerLines(w: number): string[] {
  return [...rankingLines(w, "false"), ...Array.from({ length: w }, (_, j) => `rank[${j}] = r${j}; sorted[r${j}] = a${j};`), "return true;"];
}

function apsRowLines(w: number): string[] {
  const lines = [...rankingLines(w, "-1"), ...Array.from({ length: w }, (_, j) => `sorted[r${j}] = a${j};`)];
  // The prefix scan of apsRowByLoops, its w turns written out: the first score above q leaves the block.
  lines.push("let mass = 0;", "let R = 0;", "let p = 0;", "scan: {");
  for (let r = 0; r < w; r++) {
    lines.push(`p = sorted[${r}]; if (!(mass + u * p + (pen > 0 ? pen * Math.max(0, ${r + 1} - kReg) : 0) <= q)) break scan; mass += p; R = ${r + 1};`);
  }
  lines.push("}", ...Array.from({ length: w }, (_, j) => `m[o + ${j}] = +(r${j} < R);`), "return R;");
  return lines;
}

/** A function of (d, o, ...params) from its body, or null where the engine refuses code from text. */
function compile(lines: string[], ...params: string[]): unknown {
  try {
    return new Function("d", "o", ...params, lines.join("\n"));
  } catch {
    return null; // e.g. node --disallow-code-generation-from-strings
  }
}

let order = new Int32Array(SHORT_ROW);

/** Any width: insertion after every value ≥ p keeps equal values in index order. */
export function rankByInsertion(d: Float64Array, o: number, w: number, rank: Int32Array, sorted: Float64Array): boolean {
  if (order.length < w) order = new Int32Array(w);
  const idx = order;
  for (let j = 0; j < w; j++) {
    const p = d[o + j]!;
    if (!(p >= 0 && p < Infinity)) return false;
    let t = j;
    while (t > 0 && d[o + idx[t - 1]!]! < p) {
      idx[t] = idx[t - 1]!;
      t--;
    }
    idx[t] = j;
  }
  for (let r = 0; r < w; r++) {
    rank[idx[r]!] = r;
    sorted[r] = d[o + idx[r]!]!;
  }
  return true;
}
