// Learn then Test tests every threshold (the distinct calibration scores), not a fixed 1,001-point grid (issue 29):
// where scores pile up near 1, as on the pass/fail fixture (55 of 200 calibration scores ≥ 0.999), one grid
// step took in a dozen fails at once and nothing was approved. Over 1,000 seeded splits the new rule approves
// a large share while P(true risk > target) stays ≤ δ; calibrateGateSorted gives the same calibration.
import { describe, expect, it } from "vitest";
import { calibrateGate, calibrateGateSorted, defaultThresholdGrid, extendGateScores, lttLossBudget, mulberry32, NO_GATE_SCORES } from "../../src/conformal/index.js";

// Half the items score in [0.999, 1) and fail 20% of the time; the rest score 0.999·u and pass with p = s.
const CLUSTER = 0.5;
const CLUSTER_FAIL = 0.2;
function draw(n: number, rng: () => number) {
  const scores = new Float64Array(n);
  const labels = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (rng() < CLUSTER) {
      scores[i] = 0.999 + 0.001 * rng();
      labels[i] = rng() < CLUSTER_FAIL ? 0 : 1;
    } else {
      scores[i] = 0.999 * rng();
      labels[i] = rng() < scores[i]! ? 1 : 0;
    }
  }
  return { scores, labels };
}
/** P(score ≥ λ and fail), and P(score ≥ λ), exactly. */
function truth(lambda: number): { risk: number; approved: number } {
  if (lambda >= 1) return { risk: 0, approved: 0 };
  if (lambda >= 0.999) {
    const share = 1 - (lambda - 0.999) / 0.001;
    return { risk: CLUSTER * CLUSTER_FAIL * share, approved: CLUSTER * share };
  }
  const a = Math.max(0, lambda / 0.999);
  return { risk: CLUSTER * CLUSTER_FAIL + (1 - CLUSTER) * ((1 - a) - (0.999 * (1 - a * a)) / 2), approved: CLUSTER + (1 - CLUSTER) * (1 - a) };
}

describe("Learn then Test over every threshold", () => {
  it("approves where the 1,001-point grid approved nothing, and keeps P(risk > target) ≤ δ over 1,000 splits", () => {
    const rng = mulberry32(2903);
    const TRIALS = 1000;
    const options = { guarantee: "risk_high_probability" as const, target: 0.1, delta: 0.1 };
    let violations = 0;
    let approvedNew = 0;
    let approvedGrid = 0;
    for (let t = 0; t < TRIALS; t++) {
      const { scores, labels } = draw(200, rng);
      const g = calibrateGate({ scores, labels }, options);
      const old = calibrateGate({ scores, labels }, { ...options, grid: defaultThresholdGrid() });
      const sorted = calibrateGateSorted(extendGateScores(NO_GATE_SCORES, { scores, labels }), { fail: 1, pass: 0 }, options)!;
      expect({ ...sorted }).toEqual({ ...g });
      if (g.feasible && truth(g.threshold).risk > options.target) violations++;
      approvedNew += g.feasible ? truth(g.threshold).approved : 0;
      approvedGrid += old.feasible ? truth(old.threshold).approved : 0;
    }
    const se = Math.sqrt((0.1 * 0.9) / TRIALS);
    expect(violations / TRIALS).toBeLessThanOrEqual(0.1 + 3 * se);
    expect(approvedNew / TRIALS).toBeGreaterThan(0.25);
    expect(approvedGrid / TRIALS).toBeLessThan(0.05);
  });

  it("the budget is the last count whose Hoeffding–Bentkus p-value is ≤ δ (fixed-sequence order)", async () => {
    const { hoeffdingBentkusPValue } = await import("../../src/conformal/index.js");
    for (const [n, target, delta] of [[200, 0.1, 0.1], [50, 0.2, 0.05], [1000, 0.05, 0.1], [10, 0.1, 0.1]] as const) {
      let c = 0;
      while (c <= n && hoeffdingBentkusPValue(c / n, n, target) <= delta) c++;
      expect(lttLossBudget(n, target, delta)).toBe(c - 1);
    }
  });
});
