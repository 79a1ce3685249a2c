// The APS / RAPS kernels rank each row with code written out per width (sets/rankOptions.ts). Its ranks must be the
// definition's (descending value, the lower index first on ties) at every width it compiles and past it, and
// the kernels built on it must give the sets and scores of the general path at widths the batch property
// test (K ≤ 7) does not reach.
import { describe, expect, it } from "vitest";
import { calibrateSetBatch, mulberry32, predictSetBatch, setScores } from "../../src/conformal/index.js";
import { apsRowByLoops, apsRowOf, rankByInsertion, rankRow, SHORT_ROW } from "../../src/conformal/sets/rankOptions.js";

/** Ranks by the definition: a stable sort of the indices by descending value. */
function definitionRanks(row: readonly number[]): number[] {
  const order = row.map((_, j) => j).sort((a, b) => row[b]! - row[a]! || a - b);
  const rank = new Array<number>(row.length);
  order.forEach((j, r) => (rank[j] = r));
  return rank;
}

/** Values on a grid of `grid` steps (0: continuous), so small grids give many ties. */
function randomRow(w: number, grid: number, rng: () => number): number[] {
  return Array.from({ length: w }, () => (grid ? Math.floor(rng() * grid) / grid : rng()));
}

describe("rankRow", () => {
  it("ranks every width 1–24 as the definition does, ties by index, at any offset (6,000 rows)", () => {
    const rng = mulberry32(7);
    for (let w = 1; w <= SHORT_ROW + 8; w++) {
      for (const grid of [0, 2, 3, 10]) {
        for (let t = 0; t < 60; t++) {
          const row = randomRow(w, grid, rng);
          const o = Math.floor(rng() * 3);
          const d = Float64Array.from([...new Array<number>(o).fill(0.5), ...row, 0.25]);
          const rank = new Int32Array(w);
          const sorted = new Float64Array(w);
          expect(rankRow(d, o, w, rank, sorted)).toBe(true);
          const want = definitionRanks(row);
          expect(Array.from(rank)).toEqual(want);
          expect(Array.from(sorted)).toEqual([...row].sort((a, b) => b - a));
          const rank2 = new Int32Array(w);
          expect(rankByInsertion(d, o, w, rank2, new Float64Array(w))).toBe(true);
          expect(Array.from(rank2)).toEqual(want);
        }
      }
    }
  });

  it("refuses a row holding NaN, a negative value or +∞, at written-out and insertion widths", () => {
    for (const w of [1, 3, 10, SHORT_ROW, SHORT_ROW + 3]) {
      for (const bad of [NaN, -0.1, -Infinity, Infinity]) {
        for (const at of [0, w - 1]) {
          const d = new Float64Array(w).fill(0.1);
          d[at] = bad;
          expect(rankRow(d, 0, w, new Int32Array(w), new Float64Array(w))).toBe(false);
        }
      }
      // −0 and 0 are valid probabilities.
      const d = new Float64Array(w);
      d[0] = -0;
      expect(rankRow(d, 0, w, new Int32Array(w), new Float64Array(w))).toBe(true);
    }
  });
});

describe("apsRowOf", () => {
  it("the written-out prediction row equals its loop form: set size and membership (every width 1–20, ties, λ, ±∞ thresholds)", () => {
    const rng = mulberry32(5);
    for (let w = 1; w <= 20; w++) {
      const row = apsRowOf(w);
      for (let t = 0; t < 400; t++) {
        const values = randomRow(w, [0, 2, 5][t % 3]!, rng);
        const d = Float64Array.from(values);
        const u = t % 7 === 0 ? 1 : rng();
        const q = t % 50 === 0 ? Infinity : t % 50 === 1 ? -Infinity : rng() * (w / 4);
        const pen = t % 2 ? 0 : [0.001, 0.1, 0.5][t % 3]!;
        const kReg = Math.floor(rng() * 4);
        const m1 = new Uint8Array(w);
        const m2 = new Uint8Array(w);
        const R = row(d, 0, u, q, pen, kReg, new Int32Array(w), new Float64Array(w), m1);
        expect(R).toBe(apsRowByLoops(d, 0, w, u, q, pen, kReg, new Int32Array(w), new Float64Array(w), m2));
        expect(Array.from(m1)).toEqual(Array.from(m2));
        // The set is the top R by the definition's ranks.
        const rank = definitionRanks(values);
        expect(Array.from(m1)).toEqual(rank.map((r) => +(r < R)));
      }
      expect(row(Float64Array.of(...new Array<number>(w - 1).fill(0.1), NaN), 0, 0.5, 1, 0, 0, new Int32Array(w), new Float64Array(w), new Uint8Array(w))).toBe(-1);
    }
  });
});

describe("APS / RAPS kernels on wide rows with ties", () => {
  it("calibration scores equal the per-example scores, and fast sets equal the general path's (K = 8–20)", () => {
    const rng = mulberry32(11);
    for (const K of [8, 10, 13, 16, 17, 20]) {
      for (const grid of [0, 4]) {
        const n = 300;
        const m = 200;
        const rows = Array.from({ length: n + m }, () => randomRow(K, grid, rng));
        const labels = Int32Array.from({ length: n }, () => Math.floor(rng() * K));
        const cal = Float64Array.from(rows.slice(0, n).flat());
        const test = Float64Array.from(rows.slice(n).flat());
        for (const method of ["APS", "RAPS"] as const) {
          const options = { method, alpha: 0.2, ...(method === "RAPS" ? { lambda: 0.05, kReg: 2 } : {}) };
          const c = calibrateSetBatch({ probabilities: cal, width: K, labels }, { ...options, rng: mulberry32(K) });
          const want = setScores({ probabilities: { data: cal, width: K }, labels }, method, true, mulberry32(K), c.lambda, c.kReg);
          expect(Array.from(c.strata.get("")!.scores)).toEqual(Array.from(want).sort((a, b) => a - b));
          const fast = predictSetBatch(c, { probabilities: test, width: K }, { rng: mulberry32(3) });
          const general = predictSetBatch(c, { probabilities: test, width: K }, { rng: mulberry32(3), scores: true });
          expect(Array.from(fast.membership)).toEqual(Array.from(general.membership));
          expect(Array.from(fast.sizes)).toEqual(Array.from(general.sizes));
        }
      }
    }
  });
});

describe("APS calibration checks rows while scoring them", () => {
  it("names the first bad row, its values before its label, as the check of the other methods does", () => {
    const cal = (probabilities: number[], labels: number[], method: "APS" | "LAC") =>
      () => calibrateSetBatch({ probabilities: Float64Array.from(probabilities), width: 2, labels: Int32Array.from(labels) }, { method, alpha: 0.5, rng: mulberry32(1) });
    for (const method of ["APS", "LAC"] as const) {
      expect(cal([0.5, 0.5, 0.2, NaN], [2, 0], method)).toThrow(/labels\[0\]/);
      expect(cal([0.5, -1, 0.2, 0.8], [2, 0], method)).toThrow(/probabilities\[0\]\[1\]/);
      expect(cal([0.5, 0.5, 0.2, 0.8], [1, -1], method)).toThrow(/labels\[1\]/);
      expect(cal([0.5, 0.5, Infinity, 0.8], [1, -1], method)).toThrow(/probabilities\[1\]\[0\]/);
    }
    // Without an rng a randomized APS names the missing rng only for data that passes the check.
    expect(() => calibrateSetBatch({ probabilities: Float64Array.of(0.5, NaN), width: 2, labels: Int32Array.of(0) }, { method: "APS", alpha: 0.5 })).toThrow(/probabilities\[0\]\[1\]/);
    expect(() => calibrateSetBatch({ probabilities: Float64Array.of(0.5, 0.5), width: 2, labels: Int32Array.of(0) }, { method: "APS", alpha: 0.5 })).toThrow(/rng/);
  });
});
