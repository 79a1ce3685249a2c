// gate queries: a threshold on p(pass) from the examples labelled pass / fail. risk: conformal risk control;
// risk_high_probability: Learn then Test at δ; fdr: conformal selection with Benjamini–Hochberg across every fdr
// query of the request on the same profile and target (one batch, decideGatesTogether). auto_approve above the
// threshold, escalate below, abstain when the data cannot certify any threshold.
import type { GateAnswer, GateQuery } from "../../api/index.js";
import { gateCalibration, gatePool } from "./gateCalibration.js";
import { decide, decideBatch, gateLossWeights, gateMinimumN, type CalibratedGate, type GateDecision } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { CalibrationPending } from "./rebuilds.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";

const NAMES = ["fail", "pass"] as const;

/** What a gate query needs before its decision: p(pass), its calibration (null when too few examples) and loss. */
function gatePrepared(input: QueryInput<GateQuery>) {
  const { query, profile } = input;
  const pPass = queryProbabilities(input, NAMES)[1]!;
  const pool = gatePool(profile);
  const weights = gateLossWeights(query.loss);
  const bound = Math.max(1, weights.fail, weights.pass);
  const needed = gateMinimumN(query.guarantee, query.target, bound, query.delta);
  // rows: the examples behind the threshold (the rebuild prefix for fractional losses, gateCalibration.ts).
  const calibrated = pool.n < needed ? null : gateCalibration(profile, { guarantee: query.guarantee, target: query.target, delta: query.delta, ...weights });
  return { pPass, pool, needed, calibrated };
}

/**
 * The decisions of the request's fdr gate queries, by index into `inputs` (undefined for every other query):
 * the queries on one profile at one target are one Benjamini–Hochberg batch. A query whose evidence is bad, or
 * whose profile is short, is left out (its own answer reports that).
 */
export function decideGatesTogether(inputs: readonly QueryInput[]): (GateDecision | undefined)[] | undefined {
  const batches = new Map<string, { at: number[]; scores: number[]; cal: CalibratedGate }>();
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    if (input.query.type !== "gate" || input.query.guarantee !== "fdr") continue;
    let prepared;
    try {
      prepared = gatePrepared(input as QueryInput<GateQuery>);
    } catch (err) {
      if (err instanceof CalibrationPending) throw err;
      continue;
    }
    if (!prepared.calibrated) continue;
    const key = `${input.profile.name}\u0000${input.query.target}`;
    const batch = batches.get(key) ?? { at: [], scores: [], cal: prepared.calibrated.cal };
    batch.at.push(i);
    batch.scores.push(prepared.pPass);
    batches.set(key, batch);
  }
  if (batches.size === 0) return undefined;
  const out = new Array<GateDecision | undefined>(inputs.length);
  for (const b of batches.values()) decideBatch(b.cal, b.scores).forEach((d, j) => (out[b.at[j]!] = d));
  return out;
}

/** The answer; `batched` is the query's decision in its request's fdr batch (decideGatesTogether). */
export function answerGate(input: QueryInput<GateQuery>, batched?: GateDecision): QueryOutcome {
  const { query, profile } = input;
  const { pPass, pool, needed, calibrated } = gatePrepared(input);
  const base = {
    n: pool.n,
    target: query.target,
    ...(query.delta !== undefined && query.guarantee === "risk_high_probability" ? { delta: query.delta } : {}),
    method: query.guarantee === "risk" ? "crc" : query.guarantee === "fdr" ? "conformal-selection-bh" : "ltt-hoeffding-bentkus",
    estimated: fromSamples(input.evidence) || pool.estimated > 0,
  };
  if (!calibrated) {
    const answer: GateAnswer = {
      type: "gate",
      decision: pPass >= 1 - query.target ? "auto_approve" : "escalate",
      guarantee: heuristicGuarantee(input, { ...base, needed, wanted: `${query.guarantee} at target ${query.target}` }),
    };
    return { answer, insufficient: true };
  }
  const { cal, rows } = calibrated;
  const decision = batched ?? decide(cal, pPass);
  const answer: GateAnswer = {
    type: "gate",
    decision,
    guarantee: guarantee(input, {
      ...base,
      n: rows,
      kind: query.guarantee,
      ...(decision === "abstain" ? { reason: `no threshold on p(pass) meets ${query.guarantee} ≤ ${query.target} on ${rows} examples` } : {}),
    }),
  };
  return { answer, insufficient: false };
}
