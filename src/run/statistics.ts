// The statistician's section of a run (RunStatistics): conditional coverage of the service's sets on
// the test split, the locally recomputed threshold, calibration errors of the raw probabilities and of
// the Venn–Abers beliefs, baseline sets at the same α, and warnings. Pure: data in, plain data out.
import {
  brierScore, calibrateInterval, calibrateSet, clopperPearson, coverageByStratum, coverageWithinProbability, cumulativeMassSet,
  expectedCalibrationError, labelRank, logLoss, rngFromString, smallestTopK, topKSet, worstStratumCoverage,
} from "../conformal/index.js";
import type { BaselineRow, ForecastCalibration, RunStatistics, RunSummary } from "../report/index.js";
import type { BeliefPair, ScoredItem } from "./analysis.js";
import { BAND_LEVEL } from "./coverageBand.js";

/** One test item as the service answered it. */
export interface AnsweredItem extends ScoredItem {
  /** Option names (or levels) in the order of `probabilities`. */
  names: readonly string[];
  group?: string;
  /** Size of the service's set (options) or interval (levels). */
  size: number;
  covered: boolean;
}

export interface StatisticsInput {
  type: "set" | "interval";
  method: string;
  alpha: number;
  /** Seed string of the run (randomized methods draw from it). */
  seed: string;
  calibration: readonly ScoredItem[];
  test: readonly AnsweredItem[];
  /** The Venn–Abers pairs of the service's answers (set queries). */
  pairs: readonly BeliefPair[];
  profile: { n: number; minimumN: number; recommendedN: number };
  /** Absent where the run holds no audit split (a suite's repeats). */
  audit?: RunSummary["audit"];
  /** The threshold the answers came from, when the caller calibrated (a suite cell): reported as it is, not fitted again. */
  fitted?: { score: number; k: number };
}

/** Strata with fewer test items than this are not counted in the size-stratified coverage. */
const SSC_MIN_ITEMS = 10;
const BINS = 10;

function forecast(p: number[], y: number[]): ForecastCalibration {
  return { n: p.length, ece: expectedCalibrationError(p, y, BINS), brier: brierScore(p, y), logLoss: logLoss(p, y) };
}

function fitThreshold(input: StatisticsInput): { score: number; k: number } {
  const { calibration, method, alpha, seed } = input;
  const width = calibration[0]?.probabilities.length ?? 0;
  const labels = Int32Array.from(calibration.map((c) => c.label));
  // Items of different option counts are calibrated together: rows of their own lengths.
  const examples = calibration.every((c) => c.probabilities.length === width)
    ? { probabilities: { data: Float64Array.from(calibration.flatMap((c) => c.probabilities)), width }, labels }
    : { probabilities: calibration.map((c) => c.probabilities), labels };
  const options = { method, alpha, rng: rngFromString(`${seed}@threshold`) };
  const cal = input.type === "set" ? calibrateSet(examples, options) : calibrateInterval(examples, options);
  const s = cal.strata.get("")!;
  return { score: s.threshold, k: s.k };
}

function thresholdOf(input: StatisticsInput): RunStatistics["threshold"] {
  const { method } = input;
  const s = input.fitted ?? fitThreshold(input);
  const q = s.score;
  const rule = !Number.isFinite(q)
    ? "q̂ = +∞: too few calibration examples for this α, so every answer holds every option"
    : method === "LAC"
      ? `an option is in the set when its probability is at least 1 − q̂ = ${(1 - q).toPrecision(4)}`
      : method === "APS" || method === "RAPS"
        ? `options join by decreasing probability until their (randomized${method === "RAPS" ? ", rank-penalised" : ""}) cumulative mass reaches q̂`
        : `levels are kept while their ${method} score is at most q̂`;
  return { method, score: q, k: s.k, n: input.calibration.length, rule };
}

function baselines(input: StatisticsInput): BaselineRow[] {
  const { test, alpha } = input;
  const m = test.length;
  const row = (name: string, rule: string, sets: (t: AnsweredItem) => { size: number; covered: boolean }, guaranteed: boolean, k?: number): BaselineRow => {
    let covered = 0;
    let size = 0;
    for (const t of test) {
      const s = sets(t);
      covered += s.covered ? 1 : 0;
      size += s.size;
    }
    return { name, rule, ...(k !== undefined ? { k } : {}), coverage: covered / m, averageSize: size / m, ci: clopperPearson(covered, m), guaranteed };
  };
  const answers = input.type === "interval" ? "intervals" : "sets";
  const rows = [
    // A suite calibrates on the local engine (`fitted`): its sets are not the service's.
    row("conformal", `${input.fitted ? `the ${input.method} ${answers} calibrated by the local conformal engine` : `the service's ${input.method} ${answers}`} at α = ${alpha}`, (t) => ({ size: t.size, covered: t.covered }), true),
    row("top-1", "the most probable option alone", (t) => ({ size: 1, covered: labelRank(t.probabilities, t.label) === 1 }), false),
  ];
  if (input.type === "set") {
    const k = smallestTopK(input.calibration.map((c) => labelRank(c.probabilities, c.label)), alpha);
    rows.push(row("top-k", `the ${k} most probable options: the smallest k covering 1 − α of the calibration examples`, (t) => {
      const set = topKSet(t.probabilities, k);
      return { size: set.length, covered: set.includes(t.label) };
    }, false, k));
    rows.push(row("cumulative", `most probable options until their probability adds up to 1 − α = ${1 - alpha} (no calibration)`, (t) => {
      const set = cumulativeMassSet(t.probabilities, 1 - alpha);
      return { size: set.length, covered: set.includes(t.label) };
    }, false));
  }
  return rows;
}

/** A warning and its stable code (what a suite counts over its repeats). */
type Warning = [code: string, text: string];

function warningsOf(input: StatisticsInput, s: Omit<RunStatistics, "warnings">): Warning[] {
  const { profile, alpha, test, audit } = input;
  const out: Warning[] = [];
  if (profile.n < profile.minimumN) {
    out.push(["below-minimum-n", `calibration set of ${profile.n} examples is below the minimum n = ${profile.minimumN} for α = ${alpha}: the threshold is infinite and every set holds every option`]);
  } else if (profile.n < profile.recommendedN) {
    const p = coverageWithinProbability(profile.n, alpha, 0.02);
    out.push(["small-calibration", `small calibration set: ${profile.n} examples (recommended ${profile.recommendedN}); the coverage of sets calibrated on so few lands within ±0.02 of ${1 - alpha} with probability ${(100 * p).toFixed(0)}%, not 95%`]);
  }
  const half = (s.baselines[0]!.ci[1] - s.baselines[0]!.ci[0]) / 2;
  if (half > 0.05) out.push(["small-test", `small test split: ${test.length} items measure coverage to about ±${(100 * half).toFixed(0)} points (95% Clopper–Pearson)`]);
  const byCount = s.coverageByOptionCount ?? [];
  const strataKinds = [
    ["classes", s.coverageByClass], ["groups", s.coverageByGroup], [input.type === "interval" ? "interval widths" : "set sizes", s.coverageBySize],
    ["option counts", byCount.length > 1 ? byCount : []],
  ] as const;
  for (const [what, strata] of strataKinds) {
    // An empty set covers nothing by construction: said once by the empty-sets warning, not as a stratum.
    const tested = what === "set sizes" ? strata.filter((x) => x.key !== "0") : strata;
    const under = tested.filter((x) => x.ci[1] < s.target);
    if (under.length) {
      out.push([`under-covered-${what.replace(/ /g, "-")}`, `under-covered ${what}: ${under.slice(0, 8).map((x) => `${x.key} ${(100 * x.coverage).toFixed(1)}% of ${x.n}`).join(", ")}${under.length > 8 ? ", …" : ""} (95% interval below the target in ${under.length} of ${tested.length} ${what}; each interval is tested on its own, so about 1 in 40 strata falls below by chance alone; marginal calibration promises nothing per stratum)`]);
    }
  }
  if (s.rates.empty > 0) out.push(["empty-sets", `${(100 * s.rates.empty).toFixed(1)}% of the sets are empty (${input.method} left out every option: none scored within the threshold; those items count as not covered)`]);
  if (!audit) return out;
  if (audit.result === "fail") out.push(["audit-failed", `the audit failed: realized coverage ${(100 * audit.realizedCoverage).toFixed(1)}% of ${audit.sample}, 95% CI entirely below the target`]);
  else if (audit.result === "skipped") out.push(["no-audit", "no audit: the split left no held-out audit examples"]);
  else if (audit.sample < profile.minimumN) out.push(["small-audit", `the audit sample of ${audit.sample} is small: its interval is wide and it can hardly fail`]);
  return out;
}

/** Classes in the items' option order (levels low to high), not alphabetically. */
function inOptionOrder<T extends { key: string }>(rows: T[], test: readonly AnsweredItem[]): T[] {
  const rank = new Map<string, number>();
  for (const t of test) t.names.forEach((n, i) => rank.set(n, Math.min(rank.get(n) ?? i, i)));
  return [...rows].sort((a, b) => (rank.get(a.key) ?? 0) - (rank.get(b.key) ?? 0));
}

export function runStatistics(input: StatisticsInput): RunStatistics {
  const { test, alpha } = input;
  const covered = Uint8Array.from(test.map((t) => (t.covered ? 1 : 0)));
  const sizes = Int32Array.from(test.map((t) => t.size));
  const m = test.length;
  const width = (t: AnsweredItem) => t.probabilities.length;
  const rawP: number[] = [];
  const rawY: number[] = [];
  const topP: number[] = [];
  const topY: number[] = [];
  for (const t of test) {
    t.probabilities.forEach((p, j) => {
      rawP.push(p);
      rawY.push(j === t.label ? 1 : 0);
    });
    topP.push(Math.max(...t.probabilities));
    topY.push(labelRank(t.probabilities, t.label) === 1 ? 1 : 0);
  }
  const vaP = input.pairs.map(({ p0, p1 }) => p1 / (1 - p0 + p1)); // Vovk & Petej's merge of the pair
  const vaY = input.pairs.map((x) => (x.gold ? 1 : 0));
  const bySize = coverageByStratum(test.map((t) => String(t.size)), covered, sizes);
  const grouped = test.filter((t) => t.group !== undefined);
  const partial: Omit<RunStatistics, "warnings"> = {
    alpha,
    target: 1 - alpha,
    bandLevel: BAND_LEVEL,
    threshold: thresholdOf(input),
    rates: {
      n: m,
      empty: m ? test.filter((t) => t.size === 0).length / m : NaN,
      singleton: m ? test.filter((t) => t.size === 1).length / m : NaN,
      full: m ? test.filter((t) => t.size === width(t)).length / m : NaN,
    },
    coverageByClass: inOptionOrder(coverageByStratum(test.map((t) => t.names[t.label]!), covered, sizes), test),
    coverageByGroup: grouped.length
      ? coverageByStratum(grouped.map((t) => t.group!), grouped.map((t) => (t.covered ? 1 : 0)), grouped.map((t) => t.size))
      : [],
    coverageBySize: bySize,
    coverageByOptionCount: coverageByStratum(test.map((t) => String(t.names.length)), covered, sizes),
    sizeStratifiedCoverage: worstStratumCoverage(bySize, SSC_MIN_ITEMS),
    calibration: {
      raw: forecast(rawP, rawY),
      vennAbers: vaP.length ? forecast(vaP, vaY) : null,
      topLabel: { ...forecast(topP, topY), accuracy: m ? topY.reduce((a, b) => a + b, 0) / m : NaN, confidence: m ? topP.reduce((a, b) => a + b, 0) / m : NaN },
    },
    baselines: [],
  };
  partial.baselines = m ? baselines(input) : [];
  const warnings: Warning[] = m ? warningsOf(input, partial) : [["no-test", "no test items: nothing to measure"]];
  return { ...partial, warnings: warnings.map(([, text]) => text), warningCodes: warnings.map(([code]) => code) };
}
