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
  const f = w <= SHORT_ROW ? (rankers[w] !== undefined ? rankers[w] : compileRanker(w)) : null;
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

/** The written-out ranker of width w, or null (then insertion) where code cannot be compiled from text. */
function compileRanker(w: number): Ranker | null {
  const a = (j: number) => `a${j}`;
  const js = Array.from({ length: w }, (_, j) => j);
  const lines = [
    ...js.map((j) => `const a${j} = d[o + ${j}];`),
    `if (!(${js.map((j) => `${a(j)} >= 0 && ${a(j)} < Infinity`).join(" && ") || "true"})) return false;`,
    ...js.map((j) => `let r${j} = 0;`),
    "let c = 0;",
  ];
  for (let j = 1; j < w; j++) for (let x = 0; x < j; x++) lines.push(`c = +(a${x} >= a${j}); r${j} += c; r${x} += 1 - c;`);
  lines.push(...js.map((j) => `rank[${j}] = r${j}; sorted[r${j}] = a${j};`), "return true;");
  let f: Ranker | null;
  try {
    f = new Function("d", "o", "rank", "sorted", lines.join("\n")) as Ranker;
  } catch {
    f = null; // e.g. node --disallow-code-generation-from-strings
  }
  rankers[w] = f;
  return f;
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
