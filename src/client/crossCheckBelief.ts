// Local recomputation of belief and gate answers (the service's recipe, docs/service.md): Venn–Abers on p(yes)
// over the examples labelled yes / no (the last 131,072 of the rebuild prefix); a gate threshold on p(pass) over
// the examples labelled pass / fail (the rebuild prefix when the losses are fractions); a request's fdr gates at
// one target decided together, as one Benjamini–Hochberg batch.
import type { BeliefQuery, GateQuery } from "../api/index.js";
import {
  calibrateBelief, calibrateGate, calibrateGateSorted, decide, decideBatch, extendGateScores, gateLossWeights, gateMinimumN, minimumN, NO_GATE_SCORES, predictBelief, rebuildPrefix, VENN_ABERS_WINDOW,
  type CalibratedBelief, type CalibratedGate, type GateDecision,
} from "../conformal/index.js";
import { fromSamples, methodName, namePool, probabilitiesOf, profileFields, type LocalEngine, type LocalResult } from "./crossCheckEvidence.js";

function scoresAndLabels(rows: Float64Array, labels: Int32Array): { scores: Float64Array; binary: Uint8Array } {
  const scores = new Float64Array(labels.length);
  const binary = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    scores[i] = rows[2 * i + 1]!;
    binary[i] = labels[i] === 1 ? 1 : 0;
  }
  return { scores, binary };
}

export function localBeliefAnswer(engine: LocalEngine, name: string, query: BeliefQuery): LocalResult {
  const p = probabilitiesOf(query.evidence, ["no", "yes"]);
  if (!p) return { unchecked: `query ${name} has no probabilities over no, yes` };
  const pYes = p[1]!;
  const pool = namePool(engine, ["no", "yes"], ["yes", "no"]);
  const method = methodName("venn-abers", fromSamples(query.evidence) || pool.estimated > 0);
  const base = { ...profileFields(engine), n: pool.n, method };
  if (pool.n < minimumN(engine.profile.alpha)) {
    return { answer: { type: "belief", probability: pYes, venn_abers: [pYes, pYes], guarantee: { ...base, kind: "heuristic", holds: false } } };
  }
  const m = rebuildPrefix(pool.n);
  const from = Math.max(0, m - VENN_ABERS_WINDOW);
  const cal = engine.cached("belief", (): CalibratedBelief => {
    const { scores, binary } = scoresAndLabels(pool.rows.subarray(2 * from, 2 * m), pool.labels.subarray(from, m));
    return calibrateBelief(scores, binary);
  });
  const prediction = predictBelief(cal, pYes);
  return {
    answer: { type: "belief", probability: prediction.probability, venn_abers: [prediction.p0, prediction.p1], guarantee: { ...base, n: m - from, kind: "calibration", holds: true } },
  };
}

const GATE_METHODS = { risk: "crc", fdr: "conformal-selection-bh", risk_high_probability: "ltt-hoeffding-bentkus" } as const;

/** p(pass), the gate's local calibration (null when too few examples) and the answer's guarantee fields. */
function localGate(engine: LocalEngine, query: GateQuery) {
  const p = probabilitiesOf(query.evidence, ["fail", "pass"]);
  if (!p) return undefined;
  const pPass = p[1]!;
  const pool = namePool(engine, ["fail", "pass"], ["pass", "fail"]);
  const weights = gateLossWeights(query.loss);
  const bound = Math.max(1, weights.fail, weights.pass);
  const base = {
    ...profileFields(engine),
    n: pool.n,
    target: query.target,
    ...(query.guarantee === "risk_high_probability" && query.delta !== undefined ? { delta: query.delta } : {}),
    method: methodName(GATE_METHODS[query.guarantee], fromSamples(query.evidence) || pool.estimated > 0),
  };
  if (pool.n < gateMinimumN(query.guarantee, query.target, bound, query.delta)) return { pPass, base, cal: null };
  const cal = engine.cached(`gate|${query.guarantee}|${query.target}|${query.delta}|${weights.fail}|${weights.pass}`, (): CalibratedGate => {
    const options = { guarantee: query.guarantee, target: query.target, lossBound: bound, ...(query.delta !== undefined ? { delta: query.delta } : {}) };
    const all = scoresAndLabels(pool.rows, pool.labels);
    // Losses whose sums are exact whichever order they are added in: all the examples; fractions: the rebuild prefix.
    const sorted = calibrateGateSorted(extendGateScores(NO_GATE_SCORES, { scores: all.scores, labels: all.binary }), weights, options);
    if (sorted) return sorted;
    const m = rebuildPrefix(pool.n);
    const { scores, binary } = scoresAndLabels(pool.rows.subarray(0, 2 * m), pool.labels.subarray(0, m));
    return calibrateGate({ scores, labels: binary, losses: Float64Array.from(binary, (b) => (b ? weights.pass : weights.fail)) }, options);
  });
  return { pPass, base, cal };
}

/**
 * The service's fdr batches (docs/service.md): the request's fdr gate queries at one target are one
 * Benjamini–Hochberg batch. Their decisions by query name.
 */
export function localGateBatches(engine: LocalEngine, queries: Readonly<Record<string, { type: string }>>): Map<string, GateDecision> {
  const batches = new Map<number, { names: string[]; scores: number[]; cal: CalibratedGate }>();
  for (const [name, q] of Object.entries(queries)) {
    if (q.type !== "gate" || (q as GateQuery).guarantee !== "fdr") continue;
    const g = localGate(engine, q as GateQuery);
    if (!g?.cal) continue;
    const b = batches.get((q as GateQuery).target) ?? { names: [], scores: [], cal: g.cal };
    b.names.push(name);
    b.scores.push(g.pPass);
    batches.set((q as GateQuery).target, b);
  }
  const out = new Map<string, GateDecision>();
  for (const b of batches.values()) decideBatch(b.cal, b.scores).forEach((d, j) => out.set(b.names[j]!, d));
  return out;
}

/** The local answer; `batched` is the query's decision in its request's fdr batch (localGateBatches). */
export function localGateAnswer(engine: LocalEngine, name: string, query: GateQuery, batched?: GateDecision): LocalResult {
  const g = localGate(engine, query);
  if (!g) return { unchecked: `query ${name} has no probabilities over fail, pass` };
  const { pPass, base, cal } = g;
  if (!cal) return { answer: { type: "gate", decision: pPass >= 1 - query.target ? "auto_approve" : "escalate", guarantee: { ...base, kind: "heuristic", holds: false } } };
  return { answer: { type: "gate", decision: batched ?? decide(cal, pPass), guarantee: { ...base, n: cal.n, kind: query.guarantee, holds: true } } };
}
