// gate queries: a threshold on p(pass) from the examples labelled pass / fail. risk: conformal risk control;
// risk_high_probability: Learn then Test at δ; fdr: conformal selection. auto_approve above the threshold,
// escalate below, abstain when the data cannot certify any threshold.
import type { GateAnswer, GateQuery } from "../../api/index.js";
import { gateCalibration, gatePool } from "./calibrations.js";
import { decide } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";

const NAMES = ["fail", "pass"] as const;

/** Loss if an example is approved: a named loss ("zero_one", the default) or weights per outcome. */
function lossWeights(loss: GateQuery["loss"]): { fail: number; pass: number } {
  if (loss === undefined || typeof loss === "string") return { fail: 1, pass: 0 };
  return { fail: loss.fail ?? 1, pass: loss.pass ?? 0 };
}

/** Smallest n at which the guarantee can be certified at all (with no failures seen). */
function neededN(query: GateQuery, bound: number): number {
  if (query.guarantee === "risk_high_probability") return Math.ceil(Math.log(query.delta!) / Math.log(1 - query.target));
  if (query.guarantee === "fdr") return Math.max(1, Math.ceil(1 / query.target) - 1);
  return Math.max(1, Math.ceil(bound / query.target) - 1);
}

export function answerGate(input: QueryInput<GateQuery>): QueryOutcome {
  const { query, profile } = input;
  const pPass = queryProbabilities(input, NAMES)[1]!;
  const pool = gatePool(profile);
  const weights = lossWeights(query.loss);
  const bound = Math.max(1, weights.fail, weights.pass);
  const needed = neededN(query, bound);
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
  const cal = gateCalibration(profile, { guarantee: query.guarantee, target: query.target, delta: query.delta, ...weights });
  const decision = decide(cal, pPass);
  const answer: GateAnswer = {
    type: "gate",
    decision,
    guarantee: guarantee(input, {
      ...base,
      kind: query.guarantee,
      ...(decision === "abstain" ? { reason: `no threshold on p(pass) meets ${query.guarantee} ≤ ${query.target} on ${pool.n} examples` } : {}),
    }),
  };
  return { answer, insufficient: false };
}
