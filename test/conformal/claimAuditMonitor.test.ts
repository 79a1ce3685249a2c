import { describe, expect, it } from "vitest";
import {
  agreementFrequencies,
  auditCoverage,
  binomialCdf,
  calibrateClaims,
  claimExampleScore,
  clopperPearson,
  createMonitor,
  filterClaims,
  inverseRegularizedBeta,
  mulberry32,
  normalizeClaimText,
  regularizedBeta,
  splitIntoClaims,
  updateMonitor,
  type MonitorState,
} from "../../src/conformal/index.js";
import { meanAndSe } from "./synthetic.js";

describe("claims (conformal factuality)", () => {
  it("example score = max score over false claims, −∞ if none", () => {
    expect(claimExampleScore([{ score: 0.9, correct: true }, { score: 0.4, correct: false }, { score: 0.6, correct: false }])).toBe(0.6);
    expect(claimExampleScore([{ score: 0.9, correct: true }])).toBe(-Infinity);
    expect(claimExampleScore([])).toBe(-Infinity);
  });
  it("keeps claims scored strictly above q̂, reports the reason", () => {
    const cal = calibrateClaims([[{ score: 0.5, correct: false }]], { alpha: 0.5 }); // n = 1, k = 1
    const f = filterClaims(cal, [{ text: "a", score: 0.5 }, { text: "b", score: 0.51 }]);
    expect(f.retained.map((c) => c.text)).toEqual(["b"]);
    expect(f.dropped[0]!.reason).toBe("below_threshold");
    const none = calibrateClaims([], { alpha: 0.1 });
    expect(filterClaims(none, [{ text: "a", score: 1 }]).dropped[0]!.reason).toBe("no_calibrated_threshold");
  });
  it("P(all retained claims true) ≥ 1 − α over 1,000 random splits", () => {
    const rng = mulberry32(41);
    const TRIALS = 1000;
    const ALPHA = 0.1;
    const makeExample = () =>
      Array.from({ length: 1 + Math.floor(rng() * 8) }, () => {
        const score = rng();
        return { text: "", score, correct: rng() < 0.3 + 0.7 * score };
      });
    const factual = new Float64Array(TRIALS);
    let kept = 0;
    for (let t = 0; t < TRIALS; t++) {
      const cal = calibrateClaims(Array.from({ length: 100 }, makeExample), { alpha: ALPHA });
      let ok = 0;
      for (let j = 0; j < 20; j++) {
        const ex = makeExample();
        const f = filterClaims(cal, ex);
        kept += f.retained.length;
        const retainedTrue = ex.every((c) => c.score <= cal.threshold || c.correct);
        ok += retainedTrue ? 1 : 0;
      }
      factual[t] = ok / 20;
    }
    const { mean, se } = meanAndSe(factual);
    expect(mean).toBeGreaterThanOrEqual(1 - ALPHA - 3 * se);
    expect(mean).toBeLessThanOrEqual(1 - ALPHA + 1 / 101 + 3 * se);
    expect(kept).toBeGreaterThan(0);
  });
  it("agreement frequency by normalised text", () => {
    expect(normalizeClaimText("  The Cat, sat!  ")).toBe("the cat sat");
    expect(splitIntoClaims("Paris is in France. It is big!\nNew line")).toEqual(["Paris is in France.", "It is big!", "New line"]);
    const f = agreementFrequencies(["Paris is in France.", "Rome is in Spain"], [
      "paris is in france, and it is big",
      ["Paris is in France"],
      "Berlin is in Germany.",
      "xparis is in france",
    ]);
    expect(Array.from(f)).toEqual([0.5, 0]);
  });
});

describe("beta function and Clopper–Pearson", () => {
  it("regularized incomplete beta matches exact binomial sums", () => {
    for (const [n, p] of [[10, 0.3], [57, 0.07], [200, 0.5], [1000, 0.9]] as const) {
      let cdf = 0;
      let logPmf = n * Math.log1p(-p);
      for (let k = 0; k < n; k++) {
        cdf += Math.exp(logPmf);
        logPmf += Math.log((n - k) / (k + 1)) + Math.log(p / (1 - p));
        // relative in the lower tail, absolute near 1 (the summed reference cannot resolve 1 − cdf there)
        expect(Math.abs(binomialCdf(k, n, p) - cdf)).toBeLessThanOrEqual(1e-9 * cdf + 1e-13);
      }
    }
    expect(regularizedBeta(0.5, 2, 2)).toBeCloseTo(0.5, 15);
    expect(regularizedBeta(0.25, 1, 1)).toBeCloseTo(0.25, 15);
  });
  it("inverse is the inverse", () => {
    for (const [a, b] of [[1, 1], [2, 9], [0.5, 0.5], [90, 11], [5000, 300]] as const) {
      for (const q of [1e-6, 0.025, 0.5, 0.975]) expect(regularizedBeta(inverseRegularizedBeta(q, a, b), a, b)).toBeCloseTo(q, 10);
    }
  });
  it("known values: 0 of 10 → [0, 0.3084], 5 of 10 → [0.1871, 0.8129]", () => {
    expect(clopperPearson(0, 10)[1]).toBeCloseTo(0.30849710, 7);
    expect(clopperPearson(5, 10)[0]).toBeCloseTo(0.18708603, 7);
    expect(clopperPearson(10, 10)).toEqual([expect.closeTo(0.69150290, 7), 1]);
  });
  it("covers the truth at its level: exact coverage ≥ 95% for every n and p on a grid, and 1,000 seeded draws", () => {
    for (const n of [5, 20, 57, 150]) {
      const cis = Array.from({ length: n + 1 }, (_, k) => clopperPearson(k, n));
      for (let p = 0.01; p < 1; p += 0.0137) {
        let cover = 0;
        for (let k = 0; k <= n; k++) if (cis[k]![0] <= p && p <= cis[k]![1]) cover += binomialCdf(k, n, p) - binomialCdf(k - 1, n, p);
        expect(cover, `n=${n} p=${p}`).toBeGreaterThanOrEqual(0.95 - 1e-9);
      }
    }
    const rng = mulberry32(42);
    let hits = 0;
    for (let t = 0; t < 1000; t++) {
      let k = 0;
      for (let i = 0; i < 80; i++) if (rng() < 0.9) k++;
      const [lo, hi] = clopperPearson(k, 80);
      if (lo <= 0.9 && 0.9 <= hi) hits++;
    }
    expect(hits / 1000).toBeGreaterThanOrEqual(0.95 - 3 * Math.sqrt(0.95 * 0.05 / 1000));
  });
  it("audit: fail iff the CP upper bound is below 1 − α", () => {
    const ok = auditCoverage(Array.from({ length: 200 }, (_, i) => i % 10 !== 0), 0.1);
    expect(ok.result).toBe("pass");
    expect(ok.realizedCoverage).toBeCloseTo(0.9, 15);
    const bad = auditCoverage(Array.from({ length: 200 }, (_, i) => i % 5 !== 0), 0.1);
    expect(bad.result).toBe("fail");
    expect(bad.ci[1]).toBeLessThan(0.9);
  });
});

describe("drift monitor (betting e-process)", () => {
  const run = (rate: number, steps: number, rng: () => number): MonitorState => {
    let s = createMonitor(0.1, 0.05);
    for (let t = 0; t < steps && !s.alarmed; t++) s = updateMonitor(s, rng() < rate);
    return s;
  };
  it("false alarms ≤ false_alarm_rate over 1,000 null streams (miscoverage exactly α)", () => {
    const rng = mulberry32(51);
    let alarms = 0;
    for (let i = 0; i < 1000; i++) if (run(0.1, 1000, rng).alarmed) alarms++;
    expect(alarms / 1000).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt(0.05 * 0.95 / 1000));
  });
  it("detects promptly when miscoverage shifts to 0.25", () => {
    const rng = mulberry32(52);
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const s = run(0.25, 2000, rng);
      times.push(s.alarmAt ?? Infinity);
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(0.95 * times.length)]).toBeLessThan(400);
    expect(times[100]).toBeLessThan(200);
  });
  it("state is a small JSON object that survives a round trip", () => {
    let s = createMonitor(0.1, 0.01);
    for (let i = 0; i < 10; i++) s = updateMonitor(JSON.parse(JSON.stringify(s)) as MonitorState, i % 3 === 0);
    expect(JSON.stringify(s).length).toBeLessThan(300);
    expect(s.t).toBe(10);
    expect(s.errors).toBe(4);
  });
});
