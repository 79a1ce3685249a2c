// belief queries: Venn–Abers on p(yes), calibrated on the examples labelled yes / no (or true / false).
import type { BeliefAnswer, BeliefQuery } from "../../api/index.js";
import { beliefCalibration, beliefPool } from "./calibrations.js";
import { predictBelief } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { minimumNOf } from "./pools.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";

const NAMES = ["no", "yes"] as const;

export function answerBelief(input: QueryInput<BeliefQuery>): QueryOutcome {
  const { profile } = input;
  const p = queryProbabilities(input, NAMES);
  const pYes = p[1]!;
  const pool = beliefPool(profile);
  const needed = minimumNOf(profile.meta.alpha);
  const base = { n: pool.n, method: "venn-abers", estimated: fromSamples(input.evidence) || pool.estimated > 0 };
  if (pool.n < needed) {
    const answer: BeliefAnswer = {
      type: "belief",
      probability: pYes,
      venn_abers: [pYes, pYes],
      guarantee: heuristicGuarantee(input, { ...base, needed, wanted: "a calibrated probability" }),
    };
    return { answer, insufficient: true };
  }
  // rows: the examples behind the fit (the last VENN_ABERS_WINDOW of the rebuild prefix once the pool is large).
  const { cal, rows } = beliefCalibration(profile);
  const prediction = predictBelief(cal, pYes);
  const answer: BeliefAnswer = {
    type: "belief",
    probability: prediction.probability,
    venn_abers: [prediction.p0, prediction.p1],
    guarantee: guarantee(input, { ...base, n: rows, kind: "calibration" }),
  };
  return { answer, insufficient: false };
}
