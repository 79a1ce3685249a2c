// extendSet: a calibration extended batch by batch equals calibrateSet on all the examples at once (same u per
// example), stratum by stratum and prediction by prediction, for every method and stratification.
import { describe, expect, it } from "vitest";
import {
  calibrateSet, extendSet, mergeAscending, mulberry32, predictSet, type CalibratedSet,
} from "../../src/conformal/index.js";
import { kthOfTwo } from "../../src/conformal/sets/extendSet.js";
import { settleScoresSteps } from "../../src/conformal/strata/extendStrata.js";

function data(n: number, K: number, seed: number) {
  const rng = mulberry32(seed);
  const rows = new Float64Array(n * K);
  const labels = new Int32Array(n);
  const groups: string[] = [];
  const uniforms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    const y = Math.floor(rng() * K);
    labels[i] = y;
    for (let j = 0; j < K; j++) sum += rows[i * K + j] = j === y ? 1 + rng() * 2 : rng() < 0.1 ? 0 : rng();
    for (let j = 0; j < K; j++) rows[i * K + j] = rows[i * K + j]! / sum;
    groups.push(["a", "b", "__proto__"][Math.floor(rng() * 3)]!);
    uniforms[i] = rng();
  }
  return { rows, labels, groups, uniforms };
}

function sameCalibration(a: CalibratedSet, b: CalibratedSet): void {
  const { strata: sa, ...ra } = a;
  const { strata: sb, ...rb } = b;
  expect(ra).toEqual(rb);
  expect([...sa.keys()]).toEqual([...sb.keys()]);
  for (const [key, st] of sa) {
    const other = sb.get(key)!;
    expect([st.n, st.k, Object.is(st.threshold, other.threshold)]).toEqual([other.n, other.k, true]);
    expect(Buffer.from(st.scores.buffer, st.scores.byteOffset, st.scores.byteLength).equals(Buffer.from(other.scores.buffer, other.scores.byteOffset, other.scores.byteLength))).toBe(true);
  }
}

const CASES = [
  { method: "LAC" }, { method: "APS" }, { method: "APS", randomized: false }, { method: "RAPS", lambda: 0.05, kReg: 1 },
  { method: "LAC", grouped: true }, { method: "APS", grouped: true }, { method: "APS", classConditional: true }, { method: "LAC", grouped: true, classConditional: true },
] as const;

describe("extendSet", () => {
  for (const c of CASES) {
    it(`equals a full calibration over random batches: ${JSON.stringify(c)}`, () => {
      const K = 4;
      for (let trial = 0; trial < 6; trial++) {
        // The last trial's batches outgrow the sorted delta kept beside the base, which is then folded into it.
        const n = trial === 5 ? 6000 : 300 + trial * 97;
        const most = trial === 5 ? 900 : 60;
        const { rows, labels, groups, uniforms } = data(n, K, 11 + trial);
        const options = { ...c, alpha: 0.1 };
        const grouped = "grouped" in c && c.grouped;
        const full = (m: number) => {
          let t = 0;
          return calibrateSet(
            { probabilities: { data: rows.subarray(0, m * K), width: K }, labels: labels.subarray(0, m), ...(grouped ? { groups: groups.slice(0, m) } : {}) },
            { ...options, rng: () => uniforms[t++]! },
          );
        };
        const cuts = mulberry32(trial);
        let at = Math.floor(n / 5);
        let cal = full(at);
        while (at < n) {
          const next = Math.min(n, at + 1 + Math.floor(cuts() * most));
          cal = extendSet(cal, {
            probabilities: rows.slice(at * K, next * K), width: K, labels: labels.slice(at, next),
            ...(grouped ? { groups: groups.slice(at, next) } : {}), uniforms: uniforms.slice(at, next),
          });
          at = next;
          sameCalibration(cal, full(at));
        }
        // Predictions follow: same sets for the same queries and u.
        const reference = full(n);
        const q = mulberry32(99);
        for (let i = 0; i < 50; i++) {
          const p = Float64Array.from({ length: K }, () => q());
          const s = p.reduce((x, y) => x + y, 0);
          for (let j = 0; j < K; j++) p[j] = p[j]! / s;
          const query = { probabilities: p, ...(grouped ? { group: groups[i]! } : {}) };
          const u = q();
          // The whole prediction, p-values included (counted in the extended strata's base and delta apart).
          expect(predictSet(cal, query, () => u)).toEqual(predictSet(reference, query, () => u));
        }
      }
    });
  }

  it("leaves the calibration it extends as it was", () => {
    const { rows, labels, uniforms } = data(200, 3, 5);
    let t = 0;
    const cal = calibrateSet({ probabilities: { data: rows.subarray(0, 300), width: 3 }, labels: labels.subarray(0, 100) }, { method: "APS", alpha: 0.2, rng: () => uniforms[t++]! });
    const before = Float64Array.from(cal.strata.get("")!.scores);
    extendSet(cal, { probabilities: rows.slice(300), width: 3, labels: labels.slice(100), uniforms: uniforms.slice(100) });
    expect(cal.n).toBe(100);
    expect(cal.strata.get("")!.scores).toEqual(before);
  });

  it("refuses a randomized extension without uniforms and a batch whose groups do not fit", () => {
    const { rows, labels } = data(50, 3, 6);
    const aps = calibrateSet({ probabilities: { data: rows, width: 3 }, labels }, { method: "APS", alpha: 0.2, rng: mulberry32(1) });
    expect(() => extendSet(aps, { probabilities: rows.slice(0, 3), width: 3, labels: [0] })).toThrow(/uniform/);
    expect(() => extendSet(aps, { probabilities: rows.slice(0, 3), width: 3, labels: [0], groups: ["a"], uniforms: [0.5] })).toThrow(/groups/);
    expect(() => extendSet(aps, { probabilities: Float64Array.of(0.5, NaN, 0.5), width: 3, labels: [0], uniforms: [0.5] })).toThrow(/probabilities\[0\]\[1\]/);
    expect(() => extendSet(aps, { probabilities: Float64Array.of(0.5, 0.2, 0.3), width: 3, labels: [3], uniforms: [0.5] })).toThrow(/labels\[0\]/);
  });

  it("finds the k-th of two ascending arrays", () => {
    const r = mulberry32(4);
    for (let t = 0; t < 500; t++) {
      const a = Float64Array.from({ length: Math.floor(r() * 30) }, () => Math.floor(r() * 15)).sort();
      const b = Float64Array.from({ length: Math.floor(r() * 30) }, () => Math.floor(r() * 15)).sort();
      const all = Float64Array.from([...a, ...b]).sort();
      for (let k = 1; k <= all.length; k++) expect(kthOfTwo(a, b, k)).toBe(all[k - 1]);
    }
  });

  it("merges ascending arrays", () => {
    const r = mulberry32(3);
    for (let t = 0; t < 200; t++) {
      const a = Float64Array.from({ length: Math.floor(r() * 40) }, () => Math.floor(r() * 20)).sort();
      const b = Float64Array.from({ length: Math.floor(r() * 10) }, () => Math.floor(r() * 20)).sort();
      expect(mergeAscending(a, b)).toEqual(Float64Array.from([...a, ...b]).sort());
    }
  });

  it("merges a small delta into a large base (runs copied) and a large one (two pointers) alike, signed zeros in place", () => {
    const r = mulberry32(5);
    const value = () => [0, -0, 1, -1, r()][Math.floor(r() * 5)]!;
    for (const [na, nb] of [[5000, 3], [5000, 70], [5000, 400], [300, 300]] as const) {
      const a = Float64Array.from({ length: na }, value).sort();
      const b = Float64Array.from({ length: nb }, value).sort();
      const merged = mergeAscending(a, b);
      const unsigned = (x: Float64Array) => [...x].map((v) => v + 0);
      expect(unsigned(merged)).toEqual(unsigned(Float64Array.from([...a, ...b]).sort()));
      // Among equal values a's come first: the signed zeros keep the order of a plain merge of the two.
      const zeros = (x: Float64Array) => [...x].filter((v) => v === 0).map((v) => Object.is(v, -0));
      expect(zeros(merged)).toEqual([...zeros(a), ...zeros(b)]);
    }
  });

  it("readies the scores of a calibration in steps: the same arrays as read whole, whoever reads them between steps", () => {
    const K = 4;
    const { rows, labels, uniforms } = data(102_000, K, 21);
    const make = () => {
      let t = 0;
      const full = () => calibrateSet({ probabilities: { data: rows.subarray(0, 100_000 * K), width: K }, labels: labels.subarray(0, 100_000) }, { method: "LAC", alpha: 0.1, rng: () => uniforms[t++]! });
      // A lazy calibration (sorted when first read), and one extended by less than a fold (base and delta merged when read).
      const lazy = full();
      const grown = extendSet(full(), { probabilities: rows.slice(100_000 * K), width: K, labels: labels.slice(100_000), uniforms: uniforms.slice(100_000) });
      return { lazy, grown };
    };
    const bits = (x: Float64Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
    const whole = make();
    const want = { lazy: bits(whole.lazy.strata.get("")!.scores), grown: bits(whole.grown.strata.get("")!.scores) };
    for (const readBetween of [false, true]) {
      const stepped = make();
      const steps = settleScoresSteps(new Map([["a", stepped.lazy], ["b", stepped.grown]]));
      let count = 0;
      while (!steps.next().done) {
        count++;
        if (readBetween && count === 3) expect(bits(stepped.lazy.strata.get("")!.scores).equals(want.lazy)).toBe(true);
        if (readBetween && count === 7) expect(bits(stepped.grown.strata.get("")!.scores).equals(want.grown)).toBe(true);
      }
      expect(count).toBeGreaterThanOrEqual(7);
      expect(bits(stepped.lazy.strata.get("")!.scores).equals(want.lazy)).toBe(true);
      expect(bits(stepped.grown.strata.get("")!.scores).equals(want.grown)).toBe(true);
    }
  });
});
