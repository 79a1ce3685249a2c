// Gates: score = p(pass), auto_approve when score ≥ λ̂. Three guarantees choose λ̂ (docs/conformal.md):
// risk (CRC, in expectation), risk_high_probability (LTT, with probability ≥ 1 − δ), fdr (conformal
// selection + BH across a batch). abstain when no threshold meets the guarantee.

import { ConformalError, checkUnitOpen, invalid, assertKind } from "../errors.js";
import { budgetThreshold, crcThreshold, nextUp } from "./conformalRiskControl.js";
import { floorTimes } from "../numeric/exactDecimal.js";
import { fixedSequenceRejections, hoeffdingBentkusPValue, lttLossBudget } from "./learnThenTest.js";
import { benjaminiHochbergCounts, selectionPValueCount } from "./conformalSelection.js";
import { sortScores } from "../numeric/orderStatistic.js";
import { sortedSelectionCount } from "./gateSortedScores.js";
import type { CalibratedGate, GateDecision, GateExamples, GateGuarantee, GateOptions } from "./gateTypes.js";

export type { CalibratedGate, GateDecision, GateExamples, GateGuarantee, GateOptions } from "./gateTypes.js";

/** Loss of approving a fail / a pass: zero-one unless weights per outcome are given (a named loss is zero-one). */
export function gateLossWeights(loss: string | Readonly<Record<string, number>> | undefined): { fail: number; pass: number } {
  if (loss === undefined || typeof loss === "string") return { fail: 1, pass: 0 };
  return { fail: loss.fail ?? 1, pass: loss.pass ?? 0 };
}

/** Smallest n at which a gate's guarantee can be certified at all (with no failures seen). */
export function gateMinimumN(guarantee: GateGuarantee, target: number, lossBound: number, delta?: number): number {
  if (guarantee === "risk_high_probability") return Math.ceil(Math.log(delta!) / Math.log(1 - target));
  if (guarantee === "fdr") return Math.max(1, Math.ceil(1 / target) - 1);
  return Math.max(1, Math.ceil(lossBound / target) - 1);
}

function labelValue(v: number | boolean, i: number): 0 | 1 {
  if (v === true || v === 1) return 1;
  if (v === false || v === 0) return 0;
  throw invalid(`labels[${i}] must be pass (1/true) or fail (0/false)`, `labels[${i}]`);
}

export function calibrateGate(examples: GateExamples, options: GateOptions): CalibratedGate {
  checkUnitOpen(options.target, "target");
  const n = examples.scores.length;
  if (examples.labels.length !== n) throw invalid(`labels has ${examples.labels.length} entries for ${n} scores`, "labels");
  const B = options.lossBound ?? 1;
  if (!(B > 0 && Number.isFinite(B))) throw invalid(`lossBound must be a positive number`, "lossBound");
  const losses = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(examples.scores[i]!)) throw invalid(`scores[${i}] is NaN`, `scores[${i}]`);
    const pass = labelValue(examples.labels[i]!, i);
    const l = examples.losses ? examples.losses[i]! : 1 - pass;
    if (!(l >= 0 && l <= B)) throw invalid(`losses[${i}] must lie in [0, ${B}]`, `losses[${i}]`);
    losses[i] = l;
  }
  const base = { kind: "gate" as const, guarantee: options.guarantee, target: options.target, n };
  if (options.guarantee === "risk") {
    const r = crcThreshold(examples.scores, losses, options.target, B);
    return Object.freeze({ ...base, threshold: r.threshold, feasible: r.feasible, empiricalRisk: r.empiricalRisk });
  }
  if (options.guarantee === "risk_high_probability") {
    if (options.delta === undefined) throw invalid("risk_high_probability needs delta", "delta");
    checkUnitOpen(options.delta, "delta");
    return Object.freeze({ ...base, delta: options.delta, ...lttGate(examples.scores, losses, options, B) });
  }
  if (options.guarantee === "fdr") {
    const fails: number[] = [];
    for (let i = 0; i < n; i++) if (labelValue(examples.labels[i]!, i) === 0) fails.push(examples.scores[i]!);
    const failScores = sortScores(fails);
    // Batch of one: approve iff p ≤ q, i.e. (1 + #{fails ≥ s})/(n+1) ≤ q ⇔ #{fails ≥ s} ≤ ⌊q(n+1)⌋ − 1.
    const allowed = floorTimes(n + 1, options.target) - 1;
    const feasible = allowed >= 0;
    const m = failScores.length;
    const threshold = !feasible ? Infinity : allowed >= m ? -Infinity : nextUp(failScores[m - 1 - allowed]!);
    return Object.freeze({ ...base, threshold, feasible, empiricalRisk: NaN, failScores });
  }
  throw new ConformalError("UNKNOWN_METHOD", `unknown gate guarantee "${String(options.guarantee)}"; known: risk, risk_high_probability, fdr`, { field: "guarantee" });
}

function lttGate(scores: ArrayLike<number>, losses: Float64Array, options: GateOptions, B: number) {
  if (options.grid) return lttGridGate(scores, losses, options, B);
  const n = scores.length;
  let zeroOrBound = true;
  for (let i = 0; i < n && zeroOrBound; i++) zeroOrBound = losses[i] === 0 || losses[i] === B;
  if (zeroOrBound) {
    // Counts of approved losses: the walk stops where the count passes the budget (learnThenTest.ts, lttLossBudget).
    const r = budgetThreshold(scores, losses.map((l) => (l === 0 ? 0 : 1)), lttLossBudget(n, options.target / B, options.delta!));
    return { threshold: r.threshold, feasible: r.feasible, empiricalRisk: r.empiricalRisk * B };
  }
  // Other losses: the walk itself, over the distinct scores from the top, a tie group at a time.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
  if (hoeffdingBentkusPValue(0, n, options.target / B) > options.delta!) return { threshold: Infinity, feasible: false, empiricalRisk: 0 };
  let sum = 0;
  let t = 0;
  while (t < n) {
    let u = t;
    let group = 0;
    const s = scores[order[t]!]!;
    while (u < n && scores[order[u]!]! === s) group += losses[order[u++]!]! / B;
    if (hoeffdingBentkusPValue((sum + group) / n, n, options.target / B) > options.delta!) return { threshold: nextUp(s), feasible: true, empiricalRisk: (sum / n) * B };
    sum += group;
    t = u;
  }
  return { threshold: -Infinity, feasible: true, empiricalRisk: (sum / n) * B };
}

/** Learn then Test on a grid the caller fixed before seeing data. */
function lttGridGate(scores: ArrayLike<number>, losses: Float64Array, options: GateOptions, B: number) {
  const grid = Float64Array.from(options.grid!);
  for (let j = 1; j < grid.length; j++) if (!(grid[j]! < grid[j - 1]!)) throw invalid("grid must be strictly decreasing (strict to lenient)", "grid");
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
  const pValues = new Float64Array(grid.length);
  const risks = new Float64Array(grid.length);
  let t = 0;
  let sum = 0;
  for (let j = 0; j < grid.length; j++) {
    while (t < n && scores[order[t]!]! >= grid[j]!) sum += losses[order[t++]!]! / B;
    risks[j] = n ? sum / n : 0;
    pValues[j] = hoeffdingBentkusPValue(risks[j]!, n, options.target / B);
  }
  const r = fixedSequenceRejections(pValues, options.delta!);
  if (r === 0) return { threshold: Infinity, feasible: false, empiricalRisk: 0 };
  return { threshold: grid[r - 1]!, feasible: true, empiricalRisk: risks[r - 1]! * B };
}

/**
 * How many fails (zero-one loss) the gate's rule lets through on calibration: it approves a test item iff its
 * score is above the (K + 1)-th highest calibration fail score (all of them when there are ≤ K fails), K being
 * this; −1 when infeasible. CRC and a batch of one fdr: ⌊(n + 1)·target⌋ − 1; Learn then Test: lttLossBudget.
 * (The law of the realized test risk follows from it: the run's band, src/run/queryTypes/bands.ts.)
 */
export function gateFailBudget(guarantee: GateGuarantee, n: number, target: number, delta?: number): number {
  if (guarantee === "risk_high_probability") return lttLossBudget(n, target, delta!);
  return floorTimes(n + 1, target) - 1;
}

/** The numerator 1 + #{calibration fails ≥ score} of the conformal p-value (its denominator is n + 1). */
function pValueCount(cal: CalibratedGate, score: number): number {
  if (cal.guarantee !== "fdr" || !cal.failScores) throw invalid("p-values exist for fdr gates only", "guarantee");
  return sortedSelectionCount(cal, score) ?? selectionPValueCount(cal.failScores, score);
}

/** Conformal p-value of "this item fails" (fdr gates). */
export function gatePValue(cal: CalibratedGate, score: number): number {
  assertKind(cal, "gate", "gatePValue");
  return pValueCount(cal, score) / (cal.n + 1);
}

/** Decision for one query. fdr: the query is a batch of one (approve iff its p-value ≤ q, compared exactly). */
export function decide(cal: CalibratedGate, score: number): GateDecision {
  assertKind(cal, "gate", "decide");
  if (Number.isNaN(score)) throw invalid("score is NaN", "score");
  if (!cal.feasible) return "abstain";
  if (cal.guarantee === "fdr") return pValueCount(cal, score) <= floorTimes(cal.n + 1, cal.target) ? "auto_approve" : "escalate";
  return score >= cal.threshold ? "auto_approve" : "escalate";
}

/** Decisions for a batch of queries: fdr applies BH across the batch (exactly, on the p-values' integer ratios); the others decide one by one. */
export function decideBatch(cal: CalibratedGate, scores: ArrayLike<number>): GateDecision[] {
  assertKind(cal, "gate", "decideBatch");
  if (cal.guarantee !== "fdr") return Array.from(scores as ArrayLike<number>, (s) => decide(cal, s));
  for (let i = 0; i < scores.length; i++) if (Number.isNaN(scores[i]!)) throw invalid(`scores[${i}] is NaN`, `scores[${i}]`);
  if (!cal.feasible) return Array.from(scores as ArrayLike<number>, () => "abstain" as const);
  const counts = Array.from(scores as ArrayLike<number>, (s) => pValueCount(cal, s));
  return benjaminiHochbergCounts(counts, cal.n + 1, cal.target).map((sel) => (sel ? "auto_approve" : "escalate"));
}
