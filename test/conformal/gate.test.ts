import { describe, expect, it } from "vitest";
import { calibrateGate, crcThreshold, decide, decideBatch, hoeffdingBentkusPValue, mulberry32, nextUp, binomialCdf } from "../../src/conformal/index.js";
import { meanAndSe } from "./synthetic.js";

// Known truth: s ~ U(0,1), P(pass | s) = s, so the false-approval risk of λ is P(s ≥ λ, fail) = (1 − λ)²/2.
const trueRisk = (lambda: number) => (lambda <= 0 ? 0.5 : lambda >= 1 ? 0 : (1 - lambda) ** 2 / 2);
function draw(n: number, rng: () => number) {
  const scores = new Float64Array(n);
  const labels = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    scores[i] = rng();
    labels[i] = rng() < scores[i]! ? 1 : 0;
  }
  return { scores, labels };
}

describe("gate edges", () => {
  it("CRC is infeasible (abstain) when B/(n+1) > target, exactly at the boundary otherwise", () => {
    const s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];
    const fail = [1, 1, 1, 1, 1, 1, 1, 1, 1];
    expect(crcThreshold(s, fail, 0.09).feasible).toBe(false); // 1/10 > 0.09
    const r = crcThreshold(s, fail, 0.1); // budget ⌊10·0.1⌋ − 1 = 0 fails approved
    expect(r.feasible).toBe(true);
    expect(r.threshold).toBe(nextUp(0.9));
    const g = calibrateGate({ scores: s, labels: [0, 0, 0, 0, 0, 0, 0, 0, 0] }, { guarantee: "risk", target: 0.05 });
    expect(decide(g, 0.99)).toBe("abstain");
  });
  it("CRC with no fails approves everything; ties are approved or not together", () => {
    expect(crcThreshold([0.2, 0.4], [0, 0], 0.5).threshold).toBe(-Infinity);
    // n = 19, target 0.1: budget ⌊2⌋ − 1 = 1 fail. Scores 0.8 (fail) 0.8 (fail): the tie group would add 2.
    const r = crcThreshold([0.9, 0.8, 0.8, ...Array(16).fill(0.1)], [0, 1, 1, ...Array(16).fill(0)], 0.1);
    expect(r.threshold).toBe(nextUp(0.8));
  });
  it("decisions: auto_approve at or above the threshold, escalate below", () => {
    const g = calibrateGate({ scores: [0.95, 0.9, 0.3, ...Array(20).fill(0.5)], labels: [1, 1, 0, ...Array(20).fill(1)] }, { guarantee: "risk", target: 0.1 });
    expect(decide(g, g.threshold)).toBe("auto_approve");
    expect(decide(g, -1)).toBe("auto_approve");
    const strict = calibrateGate({ scores: [0.9, 0.8, ...Array(30).fill(0.5)], labels: [0, 0, ...Array(30).fill(1)] }, { guarantee: "risk", target: 0.05 });
    expect(decide(strict, 0.85)).toBe("escalate");
    expect(decide(strict, 0.95)).toBe("auto_approve");
    expect(() => decide({ kind: "set" } as never, 0.5)).toThrow(/calibrated gate/);
    expect(() => calibrateGate({ scores: [0.5], labels: [1] }, { guarantee: "risk_high_probability", target: 0.1 })).toThrow(/delta/);
  });
  it("Hoeffding–Bentkus p-values are valid: P(p ≤ δ) ≤ δ when the risk equals the target (exact sum)", () => {
    const n = 60;
    const target = 0.2;
    let mass = 0;
    for (let k = 0; k <= n; k++) {
      const pmf = binomialCdf(k, n, target) - binomialCdf(k - 1, n, target);
      if (hoeffdingBentkusPValue(k / n, n, target) <= 0.1) mass += pmf;
    }
    expect(mass).toBeLessThanOrEqual(0.1);
    expect(mass).toBeGreaterThan(0);
  });
});

describe("gate guarantees over 1,000 random calibration sets", () => {
  const TRIALS = 1000;
  it("risk (CRC): mean true risk ≤ target", () => {
    const rng = mulberry32(31);
    const risks = new Float64Array(TRIALS);
    for (let t = 0; t < TRIALS; t++) {
      const { scores, labels } = draw(100, rng);
      const g = calibrateGate({ scores, labels }, { guarantee: "risk", target: 0.1 });
      risks[t] = trueRisk(g.threshold);
    }
    const { mean, se } = meanAndSe(risks);
    expect(mean).toBeLessThanOrEqual(0.1 + 3 * se);
    expect(mean).toBeGreaterThan(0.07); // not trivially conservative
  });
  it("risk_high_probability (LTT): P(true risk > target) ≤ δ", () => {
    const rng = mulberry32(32);
    let violations = 0;
    for (let t = 0; t < TRIALS; t++) {
      const { scores, labels } = draw(200, rng);
      const g = calibrateGate({ scores, labels }, { guarantee: "risk_high_probability", target: 0.1, delta: 0.1 });
      if (g.feasible && trueRisk(g.threshold) > 0.1) violations++;
    }
    const se = Math.sqrt((0.1 * 0.9) / TRIALS);
    expect(violations / TRIALS).toBeLessThanOrEqual(0.1 + 3 * se);
  });
  it("fdr (conformal selection + BH): mean false discovery proportion ≤ q", () => {
    const rng = mulberry32(33);
    const fdp = new Float64Array(TRIALS);
    let selected = 0;
    for (let t = 0; t < TRIALS; t++) {
      const cal = draw(100, rng);
      const test = draw(30, rng);
      const g = calibrateGate(cal, { guarantee: "fdr", target: 0.2 });
      const d = decideBatch(g, test.scores);
      let r = 0;
      let v = 0;
      d.forEach((x, j) => {
        if (x === "auto_approve") {
          r++;
          if (!test.labels[j]) v++;
        }
      });
      fdp[t] = r ? v / r : 0;
      selected += r;
    }
    const { mean, se } = meanAndSe(fdp);
    expect(mean).toBeLessThanOrEqual(0.2 + 3 * se);
    expect(selected).toBeGreaterThan(0);
  });
  it("fdr single query is a batch of one: approve iff p ≤ q, same as the threshold", () => {
    const rng = mulberry32(34);
    const cal = draw(100, rng);
    const g = calibrateGate(cal, { guarantee: "fdr", target: 0.2 });
    for (let i = 0; i < 200; i++) {
      const s = rng();
      expect(decide(g, s)).toBe(s >= g.threshold ? "auto_approve" : "escalate");
      expect(decideBatch(g, [s])[0]).toBe(decide(g, s));
    }
  });
});
