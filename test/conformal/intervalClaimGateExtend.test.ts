// extendInterval, extendNumericInterval, extendClaims and the sorted gate: a calibration extended batch by
// batch equals the full calibration on all the examples at once (same u per example), field by field and
// answer by answer, at every batch.
import { describe, expect, it } from "vitest";
import {
  calibrateClaims, calibrateGate, calibrateGateSorted, calibrateInterval, calibrateNumericInterval, decide, decideBatch, extendClaims,
  extendGateScores, extendInterval, extendNumericInterval, filterClaims, mulberry32, NO_GATE_SCORES, predictInterval, type CalibratedGate,
  type GateOptions, type Stratum,
} from "../../src/conformal/index.js";

const bytes = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function sameStrata(a: ReadonlyMap<string, Stratum>, b: ReadonlyMap<string, Stratum>): void {
  expect([...a.keys()]).toEqual([...b.keys()]);
  for (const [key, st] of a) {
    const other = b.get(key)!;
    expect([st.n, st.k, Object.is(st.threshold, other.threshold)]).toEqual([other.n, other.k, true]);
    expect(bytes(st.scores).equals(bytes(other.scores))).toBe(true);
  }
}

/** Batch boundaries: a first calibration on a fifth of n, then random batches of 1 … most rows. */
function* batches(n: number, most: number, seed: number): Generator<[number, number]> {
  const cuts = mulberry32(seed);
  let at = Math.floor(n / 5);
  yield [0, at];
  while (at < n) {
    const next = Math.min(n, at + 1 + Math.floor(cuts() * most));
    yield [at, next];
    at = next;
  }
}

function levelData(n: number, L: number, seed: number) {
  const rng = mulberry32(seed);
  const rows = new Float64Array(n * L);
  const labels = new Int32Array(n);
  const groups: string[] = [];
  const uniforms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    const centre = Math.floor(rng() * L);
    for (let l = 0; l < L; l++) sum += rows[i * L + l] = Math.exp(-Math.abs(l - centre) * (0.5 + rng())) * (rng() < 0.05 ? 0 : 1) + 1e-3;
    for (let l = 0; l < L; l++) rows[i * L + l] = rows[i * L + l]! / sum;
    labels[i] = Math.min(L - 1, Math.max(0, centre + Math.round((rng() - 0.5) * 3)));
    groups.push(["a", "b", "__proto__"][Math.floor(rng() * 3)]!);
    uniforms[i] = rng();
  }
  return { rows, labels, groups, uniforms };
}

describe("extendInterval", () => {
  const CASES = [
    { method: "ordinal-aps" }, { method: "CQR" }, { method: "ordinal-aps", randomized: false }, { method: "CQR", randomized: false },
    { method: "CQR", grouped: true }, { method: "ordinal-aps", grouped: true },
  ] as const;
  for (const c of CASES) {
    it(`equals a full calibration over random batches: ${JSON.stringify(c)}`, () => {
      const L = 7;
      for (let trial = 0; trial < 4; trial++) {
        // The last trial's batches outgrow the sorted delta kept beside the base, which is then folded into it.
        const n = trial === 3 ? 5000 : 200 + trial * 131;
        const most = trial === 3 ? 900 : 50;
        const { rows, labels, groups, uniforms } = levelData(n, L, 31 + trial);
        const grouped = "grouped" in c && c.grouped;
        const randomized = !("randomized" in c) || c.randomized;
        const options = { method: c.method, alpha: 0.15, randomized };
        const full = (m: number) => {
          let t = 0;
          return calibrateInterval(
            { probabilities: { data: rows.subarray(0, m * L), width: L }, labels: labels.subarray(0, m), ...(grouped ? { groups: groups.slice(0, m) } : {}) },
            { ...options, ...(randomized ? { rng: () => uniforms[t++]! } : {}) },
          );
        };
        let cal = full(0);
        for (const [from, to] of batches(n, most, trial)) {
          cal = extendInterval(cal, {
            probabilities: rows.slice(from * L, to * L), width: L, labels: labels.slice(from, to),
            ...(grouped ? { groups: groups.slice(from, to) } : {}), ...(randomized ? { uniforms: uniforms.slice(from, to) } : {}),
          });
          const reference = full(to);
          const { strata, ...rest } = cal;
          const { strata: refStrata, ...refRest } = reference;
          expect(rest).toEqual(refRest);
          sameStrata(strata, refStrata);
        }
        const reference = full(n);
        const q = mulberry32(7);
        for (let i = 0; i < 40; i++) {
          const p = Float64Array.from({ length: L }, () => q());
          const query = { probabilities: p, ...(grouped ? { group: groups[i]! } : {}) };
          const u = q();
          expect(predictInterval(cal, query, () => u)).toEqual(predictInterval(reference, query, () => u));
        }
      }
    });
  }

  it("leaves the calibration it extends as it was, and refuses batches that do not fit", () => {
    const { rows, labels, uniforms } = levelData(300, 5, 3);
    let t = 0;
    const cal = calibrateInterval({ probabilities: { data: rows.subarray(0, 500), width: 5 }, labels: labels.subarray(0, 100) }, { method: "CQR", alpha: 0.2, rng: () => uniforms[t++]! });
    const before = Float64Array.from(cal.strata.get("")!.scores);
    extendInterval(cal, { probabilities: rows.slice(500), width: 5, labels: labels.slice(100), uniforms: uniforms.slice(100) });
    expect(cal.n).toBe(100);
    expect(cal.strata.get("")!.scores).toEqual(before);
    expect(() => extendInterval(cal, { probabilities: rows.slice(0, 5), width: 5, labels: [0] })).toThrow(/uniform/);
    expect(() => extendInterval(cal, { probabilities: rows.slice(0, 4), width: 4, labels: [0], uniforms: [0.5] })).toThrow(/levels/);
    expect(() => extendInterval(cal, { probabilities: rows.slice(0, 5), width: 5, labels: [5], uniforms: [0.5] })).toThrow(/labels\[0\]/);
    expect(() => extendInterval(cal, { probabilities: rows.slice(0, 5), width: 5, labels: [0], groups: ["a"], uniforms: [0.5] })).toThrow(/groups/);
  });
});

describe("extendNumericInterval", () => {
  for (const grouped of [false, true]) {
    it(`equals a full calibration over random batches${grouped ? " (Mondrian)" : ""}`, () => {
      const rng = mulberry32(5);
      const n = 4000;
      const lower = Float64Array.from({ length: n }, () => rng() * 10);
      const upper = Float64Array.from(lower, (l) => l + rng() * 3);
      const y = Float64Array.from(lower, (l) => l + (rng() - 0.2) * 4);
      const groups = Array.from({ length: n }, () => (rng() < 0.3 ? "x" : "y"));
      const full = (m: number) => calibrateNumericInterval({ lower: lower.subarray(0, m), upper: upper.subarray(0, m), y: y.subarray(0, m), ...(grouped ? { groups: groups.slice(0, m) } : {}) }, { alpha: 0.1 });
      let cal = full(0);
      for (const [from, to] of batches(n, 700, 9)) {
        cal = extendNumericInterval(cal, { lower: lower.slice(from, to), upper: upper.slice(from, to), y: y.slice(from, to), ...(grouped ? { groups: groups.slice(from, to) } : {}) });
        const { strata, ...rest } = cal;
        const { strata: refStrata, ...refRest } = full(to);
        expect(rest).toEqual(refRest);
        sameStrata(strata, refStrata);
      }
    });
  }
});

describe("extendClaims", () => {
  it("equals a full calibration over random batches, claims filtered alike", () => {
    const rng = mulberry32(12);
    const examples = Array.from({ length: 3000 }, () =>
      Array.from({ length: Math.floor(rng() * 5) }, () => ({ score: Math.round(rng() * 20) / 20, correct: rng() < 0.8 })));
    let cal = calibrateClaims([], { alpha: 0.1 });
    for (const [from, to] of batches(examples.length, 600, 4)) {
      cal = extendClaims(cal, examples.slice(from, to));
      const reference = calibrateClaims(examples.slice(0, to), { alpha: 0.1 });
      expect([cal.n, Object.is(cal.threshold, reference.threshold)]).toEqual([reference.n, true]);
      sameStrata(new Map([["", cal.stratum]]), new Map([["", reference.stratum]]));
      const claims = Array.from({ length: 6 }, (_, i) => ({ text: `c${i}`, score: i / 5 }));
      expect(filterClaims(cal, claims)).toEqual(filterClaims(reference, claims));
    }
  });
});

describe("calibrateGateSorted", () => {
  function gateData(n: number, seed: number) {
    const rng = mulberry32(seed);
    // Scores on a coarse grid: ties across labels and batches, as sample frequencies give.
    const scores = Float64Array.from({ length: n }, () => Math.round(rng() * 40) / 40);
    const labels = Uint8Array.from(scores, (s) => (rng() < 0.15 + 0.8 * s ? 1 : 0));
    return { scores, labels };
  }
  const OPTIONS: (GateOptions & { weights: { fail: number; pass: number } })[] = [
    { guarantee: "risk", target: 0.1, weights: { fail: 1, pass: 0 } },
    { guarantee: "risk", target: 0.05, weights: { fail: 1, pass: 1 } },
    { guarantee: "risk", target: 0.2, weights: { fail: 5, pass: 2 }, lossBound: 5 },
    { guarantee: "risk", target: 0.3, weights: { fail: 3, pass: 0 }, lossBound: 3 },
    { guarantee: "risk_high_probability", target: 0.15, delta: 0.1, weights: { fail: 1, pass: 0 } },
    { guarantee: "risk_high_probability", target: 0.2, delta: 0.05, weights: { fail: 4, pass: 0 }, lossBound: 4 },
    { guarantee: "fdr", target: 0.1, weights: { fail: 1, pass: 0 } },
    { guarantee: "fdr", target: 0.3, weights: { fail: 2, pass: 1 }, lossBound: 2 },
  ];
  for (const { weights, ...options } of OPTIONS) {
    it(`equals calibrateGate over random batches: ${JSON.stringify({ ...options, weights })}`, () => {
      const n = 6000;
      const { scores, labels } = gateData(n, 21);
      const full = (m: number): CalibratedGate =>
        calibrateGate({ scores: scores.subarray(0, m), labels: labels.subarray(0, m), losses: Float64Array.from(labels.subarray(0, m), (l) => (l ? weights.pass : weights.fail)) }, options);
      let data = NO_GATE_SCORES;
      const q = Float64Array.from({ length: 41 }, (_, i) => i / 40);
      let finite = 0;
      for (const [from, to] of batches(n, 800, 2)) {
        data = extendGateScores(data, { scores: scores.slice(from, to), labels: labels.slice(from, to) });
        const cal = calibrateGateSorted(data, weights, options)!;
        const reference = full(to);
        const { failScores, ...rest } = cal;
        const { failScores: refFails, ...refRest } = reference;
        expect(rest).toEqual(refRest);
        expect(Object.is(cal.threshold, reference.threshold)).toBe(true);
        expect(Object.is(cal.empiricalRisk, reference.empiricalRisk)).toBe(true);
        expect(Array.from(q, (s) => decide(cal, s))).toEqual(Array.from(q, (s) => decide(reference, s)));
        expect(decideBatch(cal, q)).toEqual(decideBatch(reference, q));
        if (options.guarantee === "fdr") expect(bytes(failScores!).equals(bytes(refFails!))).toBe(true);
        if (Number.isFinite(cal.threshold)) finite++;
      }
      expect(finite).toBeGreaterThan(0); // thresholds inside the scores were compared, not only the edge cases
    });
  }

  it("leaves losses it cannot sum exactly to calibrateGate, and refuses bad labels and scores", () => {
    const data = extendGateScores(NO_GATE_SCORES, { scores: [0.2, 0.9], labels: [0, 1] });
    expect(calibrateGateSorted(data, { fail: 0.3, pass: 0.1 }, { guarantee: "risk", target: 0.2 })).toBeUndefined();
    expect(calibrateGateSorted(data, { fail: 2, pass: 1 }, { guarantee: "risk_high_probability", target: 0.2, delta: 0.1, lossBound: 2 })).toBeUndefined();
    // A loss that never occurs does not matter: no pass among these examples.
    const fails = extendGateScores(NO_GATE_SCORES, { scores: [0.2, 0.3], labels: [0, 0] });
    expect(calibrateGateSorted(fails, { fail: 1, pass: 0.5 }, { guarantee: "risk", target: 0.5 })).toEqual(
      calibrateGate({ scores: [0.2, 0.3], labels: [0, 0] }, { guarantee: "risk", target: 0.5 }));
    expect(() => extendGateScores(NO_GATE_SCORES, { scores: [0.5], labels: [2] })).toThrow(/labels\[0\]/);
    expect(() => extendGateScores(NO_GATE_SCORES, { scores: [NaN], labels: [1] })).toThrow(/scores\[0\]/);
  });
});
