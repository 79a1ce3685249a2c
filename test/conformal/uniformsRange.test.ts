// Caller-given uniforms outside [0, 1) are refused with the offending entry named, on every path that takes
// them: the fast APS / RAPS kernel (sets only), the general one (scores, p-values), ordinal intervals and the
// extensions. Without the check the two set kernels answered differently for the same u (issue #14).
import { describe, expect, it } from "vitest";
import {
  ConformalError, calibrateIntervalBatch, calibrateSetBatch, extendInterval, extendSet, mulberry32, predictIntervalBatch, predictSetBatch,
} from "../../src/conformal/index.js";

function pool(n: number, K: number, seed: number) {
  const rng = mulberry32(seed);
  const probabilities = new Float64Array(n * K);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < K; j++) s += probabilities[i * K + j] = rng() + 0.01;
    for (let j = 0; j < K; j++) probabilities[i * K + j]! /= s;
    labels[i] = Math.floor(rng() * K);
  }
  return { probabilities, width: K, labels };
}

function fieldOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConformalError);
    expect((e as ConformalError).code).toBe("INVALID_ARGUMENT");
    expect((e as Error).message).toMatch(/\[0, 1\)/);
    return (e as ConformalError).field;
  }
  return undefined;
}

const BAD = [1, 1.5, -0.25, -Infinity, NaN];

describe("uniforms outside [0, 1)", () => {
  const cal = pool(200, 4, 1);
  const test = pool(5, 4, 2);
  const rows = { probabilities: test.probabilities, width: 4 };

  for (const method of ["APS", "RAPS"] as const) {
    const c = calibrateSetBatch(cal, { method, alpha: 0.1, rng: mulberry32(3), ...(method === "RAPS" ? { lambda: 0.1, kReg: 1 } : {}) });
    for (const extras of [{}, { pValues: true }, { scores: true }]) {
      it(`predictSetBatch ${method} ${JSON.stringify(extras)} names the entry`, () => {
        for (const bad of BAD) {
          const uniforms = Float64Array.of(0.5, 0, 0.99, bad, 0.1);
          expect(fieldOf(() => predictSetBatch(c, rows, { uniforms, ...extras }))).toBe("uniforms[3]");
        }
        // In range (0 included, just below 1 included) is accepted.
        expect(predictSetBatch(c, rows, { uniforms: Float64Array.of(0, 0.5, 1 - 2 ** -53, 0.25, 0.75), ...extras }).count).toBe(5);
      });
    }
    it(`extendSet ${method} names the entry`, () => {
      expect(fieldOf(() => extendSet(c, { probabilities: test.probabilities, width: 4, labels: test.labels, uniforms: [0.1, 0.2, 1, 0.3, 0.4] }))).toBe("uniforms[2]");
      expect(extendSet(c, { probabilities: test.probabilities, width: 4, labels: test.labels, uniforms: [0.1, 0.2, 0, 0.3, 0.4] }).n).toBe(205);
    });
  }

  it("a deterministic set calibration ignores uniforms, as it always has", () => {
    const c = calibrateSetBatch(cal, { method: "APS", alpha: 0.1, randomized: false });
    expect(predictSetBatch(c, rows, { uniforms: Float64Array.of(0.5, 0.5, 7, 0.5, 0.5) }).count).toBe(5);
  });

  for (const method of ["CQR", "ordinal-APS"] as const) {
    const c = calibrateIntervalBatch(cal, { method, alpha: 0.1, rng: mulberry32(4) });
    it(`predictIntervalBatch ${method} names the entry, and a short uniforms`, () => {
      for (const bad of BAD) expect(fieldOf(() => predictIntervalBatch(c, rows, { uniforms: Float64Array.of(0.5, bad, 0.5, 0.5, 0.5) }))).toBe("uniforms[1]");
      expect(() => predictIntervalBatch(c, rows, { uniforms: Float64Array.of(0.5) })).toThrow(/uniforms has 1 entries for 5 rows/);
      expect(predictIntervalBatch(c, rows, { uniforms: Float64Array.of(0, 0.5, 0.5, 0.5, 0.5) }).count).toBe(5);
    });
    it(`extendInterval ${method} names the entry`, () => {
      expect(fieldOf(() => extendInterval(c, { probabilities: test.probabilities, width: 4, labels: test.labels, uniforms: [0.1, 0.2, 0.3, 0.4, -1] }))).toBe("uniforms[4]");
    });
  }
});
