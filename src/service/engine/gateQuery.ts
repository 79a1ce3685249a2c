// gate queries: a threshold on p(pass) from the examples labelled pass / fail. risk: conformal risk control;
// risk_high_probability: Learn then Test at δ; fdr: conformal selection. auto_approve above the threshold,
// escalate below, abstain when the data cannot certify any threshold.
import type { GateAnswer, GateQuery } from "../../api/index.js";
import { gateCalibration, gatePool } from "./gateCalibration.js";
import { decide, gateLossWeights, gateMinimumN } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";

const NAMES = ["fail", "pass"] as const;

export function answerGate(input: QueryInput<GateQuery>): QueryOutcome {
  const { query, profile } = input;
  const pPass = queryProbabilities(input, NAMES)[1]!;
  const pool = gatePool(profile);
  const weights = gateLossWeights(query.loss);
  const bound = Math.max(1, weights.fail, weights.pass);
  const needed = gateMinimumN(query.guarantee, query.target, bound, query.delta);
  const base = {
    n: pool.n,
    target: query.target,
    ...(query.delta !== undefined && query.guarantee === "risk_high_probability" ? { delta: query.delta } : {}),
    method: query.guarantee === "risk" ? "crc" : query.guarantee === "fdr" ? "conformal-selection-bh" : "ltt-hoeffding-bentkus",
    estimated: fromSamples(input.evidence) || pool.estimated > 0,
  };
  if (pool.n < needed) {
    const answer: GateAnswer = {
      type: "gate",
      decision: pPass >= 1 - query.target ? "auto_approve" : "escalate",
      guarantee: heuristicGuarantee(input, { ...base, needed, wanted: `${query.guarantee} at target ${query.target}` }),
    };
    return { answer, insufficient: true };
  }
  // rows: the examples behind the threshold (the rebuild prefix for fractional losses, gateCalibration.ts).
  const { cal, rows } = gateCalibration(profile, { guarantee: query.guarantee, target: query.target, delta: query.delta, ...weights });
  const decision = decide(cal, pPass);
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
