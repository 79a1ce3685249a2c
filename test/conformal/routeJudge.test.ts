import { describe, expect, it } from "vitest";
import { calibrateRoute, calibrateSet, HUMAN_QUEUE, judgeCascade, mulberry32, routeStep } from "../../src/conformal/index.js";

// Known truth: stage 0 confidence c ~ U(0,1), correct w.p. c, 1 cent; stage 1 correct w.p. 0.95, 10 cents.
// Threshold τ: expected cost 1 + 10·τ, accuracy (1 − τ²)/2 + 0.95·τ (τ ≥ 1: always defer).
const cost = (tau: number) => 1 + 10 * Math.min(tau, 1);
const accuracy = (tau: number) => (tau >= 1 ? 0.95 : (1 - tau * tau) / 2 + 0.95 * tau);
function draw(n: number, rng: () => number) {
  const confidence = new Float64Array(2 * n);
  const correct = new Uint8Array(2 * n);
  for (let i = 0; i < n; i++) {
    const c = rng();
    confidence[2 * i] = c;
    correct[2 * i] = rng() < c ? 1 : 0;
    confidence[2 * i + 1] = 1;
    correct[2 * i + 1] = rng() < 0.95 ? 1 : 0;
  }
  return { stages: 2, confidence, correct, cost: [1, 10] };
}

describe("route over 1,000 random calibration sets", () => {
  it("cost_budget: P(expected cost > target) ≤ δ, and it buys accuracy with the budget", () => {
    const rng = mulberry32(61);
    let violations = 0;
    let feasible = 0;
    for (let t = 0; t < 1000; t++) {
      const r = calibrateRoute(draw(300, rng), { guarantee: "cost_budget", targetCents: 6, delta: 0.1 });
      if (!r.feasible) continue;
      feasible++;
      if (cost(r.thresholds![0]!) > 6) violations++;
    }
    expect(feasible).toBeGreaterThan(900);
    expect(violations / 1000).toBeLessThanOrEqual(0.1 + 3 * Math.sqrt(0.09 / 1000));
  });
  it("accuracy: P(true accuracy < 1 − α) ≤ δ, picking a cheap threshold", () => {
    const rng = mulberry32(62);
    let violations = 0;
    let feasible = 0;
    for (let t = 0; t < 1000; t++) {
      const r = calibrateRoute(draw(300, rng), { guarantee: "accuracy", alpha: 0.2, delta: 0.1 });
      if (!r.feasible) continue;
      feasible++;
      if (accuracy(r.thresholds![0]!) < 0.8) violations++;
      expect(r.thresholds![0]!).toBeLessThan(Infinity);
    }
    expect(feasible).toBeGreaterThan(900);
    expect(violations / 1000).toBeLessThanOrEqual(0.1 + 3 * Math.sqrt(0.09 / 1000));
  });
  it("routeStep: answer at or above τ, the last stage always answers", () => {
    const r = calibrateRoute(draw(300, mulberry32(63)), { guarantee: "accuracy", alpha: 0.2 });
    const tau = r.thresholds![0]!;
    expect(routeStep(r, 0, tau)).toBe("answer");
    expect(routeStep(r, 0, tau - 1e-9)).toBe("defer");
    expect(routeStep(r, 1, 0)).toBe("answer");
    const impossible = calibrateRoute(draw(50, mulberry32(64)), { guarantee: "accuracy", alpha: 0.01 });
    expect(impossible.feasible).toBe(false);
    expect(routeStep(impossible, 0, 1)).toBe("defer");
  });
});

describe("judge cascade", () => {
  const cal = calibrateSet(
    { probabilities: [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]], labels: [0, 1, 0, 1] },
    { method: "LAC", alpha: 0.4 }, // n = 4, k = 3: scores .1 .2 .4 .3 → q̂ = 0.3
  );
  it("a singleton set answers; otherwise (empty or several) escalate; past the last stage, the human queue", () => {
    const stage = (name: string, p: number[]) => ({ name, calibrated: cal, probabilities: p, candidates: ["A", "B"] });
    expect(judgeCascade([stage("small", [0.95, 0.05]), stage("big", [0.5, 0.5])])).toMatchObject({ winner: "A", answeredBy: 0, escalatedTo: null });
    expect(judgeCascade([stage("small", [0.6, 0.4]), stage("big", [0.1, 0.9])])).toMatchObject({ winner: "B", answeredBy: 1, escalatedTo: "big" });
    const none = judgeCascade([stage("small", [0.65, 0.35]), stage("big", [0.5, 0.5])]);
    expect(none).toMatchObject({ winner: null, answeredBy: null, escalatedTo: HUMAN_QUEUE });
    expect(none.steps.map((s) => s.set)).toEqual([[], []]) // two options: no option reaches 1 − p ≤ 0.3 beside the top one, so ambiguity shows as an empty set;
  });
});
