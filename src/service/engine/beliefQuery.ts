// belief queries: Venn–Abers on p(yes), calibrated on the examples labelled yes / no (or true / false).
import type { BeliefAnswer, BeliefQuery } from "../../api/index.js";
import { calibrateBelief, predictBelief } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { cached, probabilityPool, minimumNOf } from "./pools.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";

const NAMES = ["no", "yes"] as const;

export function answerBelief(input: QueryInput<BeliefQuery>): QueryOutcome {
  const { profile } = input;
  const p = queryProbabilities(input, NAMES);
  const pYes = p[1]!;
  const pool = probabilityPool(profile, NAMES, { grouped: false, booleanNames: ["yes", "no"] });
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
  const cal = cached(profile, "belief", () => {
    const scores = new Float64Array(pool.n);
    const labels = new Uint8Array(pool.n);
    for (let i = 0; i < pool.n; i++) {
      scores[i] = pool.rows[2 * i + 1]!;
      labels[i] = pool.labels[i] === 1 ? 1 : 0;
    }
    return calibrateBelief(scores, labels);
  });
  const prediction = predictBelief(cal, pYes);
  const answer: BeliefAnswer = {
    type: "belief",
    probability: prediction.probability,
    venn_abers: [prediction.p0, prediction.p1],
    guarantee: guarantee(input, { ...base, kind: "calibration" }),
  };
  return { answer, insufficient: false };
}
