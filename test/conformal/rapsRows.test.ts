// RAPS calibration over fixed-width rows tunes and scores in one pass (sets/rapsCalibration.ts); rows given with explicit
// boundaries take the general path (tuning rows ranked on their own, then each calibrating row scored by
// trueLabelScore). The two must give the same calibration, bit for bit, and name the same bad row.
import { describe, expect, it } from "vitest";
import { calibratedToJSON, calibrateSetBatch, mulberry32 } from "../../src/conformal/index.js";
import { calibrateSetCore } from "../../src/conformal/sets/columnarApi.js";

function rowsWithBoundaries(data: Float64Array, K: number) {
  const count = data.length / K;
  return { data, count, width: K, starts: Int32Array.from({ length: count + 1 }, (_, i) => i * K) };
}

describe("RAPS calibration in one pass", () => {
  it("equals the general path: λ, k_reg, split and scores (random sizes, ties, randomized or not)", () => {
    const rng = mulberry32(21);
    for (let c = 0; c < 240; c++) {
      const K = 2 + (c % 11);
      const n = [10, 40, 95, 100, 400, 1500][c % 6]!;
      const grid = [0, 3, 8][c % 3]!;
      const data = Float64Array.from({ length: n * K }, () => (grid ? Math.floor(rng() * grid) / grid : rng()));
      const labels = Int32Array.from({ length: n }, () => Math.floor(rng() * K));
      const options = { method: "RAPS" as const, alpha: [0.1, 0.2, 0.05][c % 3]!, randomized: c % 4 !== 0, ...(c % 5 === 0 ? { tuningFraction: 0.5 } : {}) };
      const seed = Math.floor(rng() * 2 ** 31);
      const fused = calibrateSetBatch({ probabilities: data, width: K, labels }, { ...options, rng: mulberry32(seed) });
      const general = calibrateSetCore(rowsWithBoundaries(data, K), labels, undefined, { ...options, rng: mulberry32(seed) });
      expect(calibratedToJSON(fused)).toBe(calibratedToJSON(general));
    }
  });

  it("names the first bad row in row order, values before label, wherever the split put it", () => {
    const n = 200;
    const K = 4;
    for (const bad of [0, 57, 199]) {
      for (const kind of ["value", "label", "both"] as const) {
        const data = new Float64Array(n * K).fill(0.25);
        const labels = new Int32Array(n);
        if (kind !== "label") data[bad * K + 2] = NaN;
        if (kind !== "value") labels[bad] = K;
        // A later row bad the other way must not be the one named.
        if (bad < n - 1) labels[n - 1] = -1;
        const want = kind === "label" ? new RegExp(`labels\\[${bad}\\]`) : new RegExp(`probabilities\\[${bad}\\]\\[2\\]`);
        for (const seed of [1, 2, 3]) {
          expect(() => calibrateSetBatch({ probabilities: data, width: K, labels }, { method: "RAPS", alpha: 0.1, rng: mulberry32(seed) })).toThrow(want);
        }
        expect(() => calibrateSetCore(rowsWithBoundaries(data, K), labels, undefined, { method: "RAPS", alpha: 0.1, rng: mulberry32(1) })).toThrow(want);
      }
    }
  });
});
