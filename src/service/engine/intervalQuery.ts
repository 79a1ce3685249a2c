// interval queries: an interval of ordered levels (CQR on level indices, or ordinal APS) calibrated on the
// examples whose level_probabilities cover the same levels and whose label is one of them.
import type { IntervalAnswer, IntervalQuery } from "../../api/index.js";
import { intervalCalibration, intervalMethodOf } from "./calibrations.js";
import { predictInterval } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { minimumNOf } from "./pools.js";
import { predictionRng } from "./seeds.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";

export function answerInterval(input: QueryInput<IntervalQuery>): QueryOutcome {
  const { query, profile } = input;
  const levels = query.levels;
  const names = levels.map(String);
  const alpha = query.alpha ?? profile.meta.alpha;
  const method = intervalMethodOf(profile, query.method);
  const p = queryProbabilities(input, names, true);
  const { pool, cal } = intervalCalibration(profile, names, method, alpha);
  const needed = minimumNOf(alpha);
  const base = { alpha, method, n: pool.n, estimated: fromSamples(input.evidence, true) || pool.estimated > 0 };
  if (pool.n < needed) {
    // Heuristic: the central levels holding 1 − α of the mass around the median.
    let cum = 0;
    let lo = 0;
    let hi = names.length - 1;
    let median = 0;
    for (let j = 0; j < names.length; j++) {
      const before = cum;
      cum += p[j]!;
      if (before < alpha / 2) lo = j;
      if (before < 0.5) median = j;
      if (cum >= 1 - alpha / 2) {
        hi = j;
        break;
      }
    }
    const answer: IntervalAnswer = {
      type: "interval",
      point_estimate: levels[median]!,
      interval: [levels[Math.min(lo, median)]!, levels[Math.max(hi, median)]!],
      legend: names,
      guarantee: heuristicGuarantee(input, { ...base, needed, wanted: `coverage at alpha ${alpha}` }),
    };
    return { answer, insufficient: true };
  }
  const prediction = predictInterval(cal, { probabilities: p, levels: names }, predictionRng(input));
  const lower = prediction.empty ? prediction.pointEstimate : prediction.lower;
  const upper = prediction.empty ? prediction.pointEstimate : prediction.upper;
  const answer: IntervalAnswer = {
    type: "interval",
    point_estimate: levels[prediction.pointEstimate]!,
    interval: [levels[lower]!, levels[upper]!],
    legend: prediction.legend,
    guarantee: guarantee(input, { ...base, kind: "coverage", n: prediction.n }),
  };
  return { answer, insufficient: false };
}
