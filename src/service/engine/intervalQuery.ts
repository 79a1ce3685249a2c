// interval queries: an interval of ordered levels (CQR on level indices, or ordinal APS) calibrated on the
// examples whose level_probabilities cover the same levels and whose label is one of them.
import type { IntervalAnswer, IntervalQuery } from "../../api/index.js";
import { calibrateInterval, predictInterval } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { cached, probabilityPool, minimumNOf } from "./pools.js";
import { calibrationRng, predictionRng } from "./seeds.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";

const INTERVAL_METHODS = new Set(["CQR", "ordinal-aps"]);

export function answerInterval(input: QueryInput<IntervalQuery>): QueryOutcome {
  const { query, profile } = input;
  const levels = query.levels;
  const names = levels.map(String);
  const alpha = query.alpha ?? profile.meta.alpha;
  const method = query.method ?? (INTERVAL_METHODS.has(profile.meta.method) ? profile.meta.method : "ordinal-aps");
  const p = queryProbabilities(input, names, true);
  const pool = probabilityPool(profile, names, { levels: true, grouped: false });
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
  const cal = cached(profile, `interval|${method}|${alpha}|${names.join("\u0000")}`, () =>
    calibrateInterval(
      { probabilities: { data: pool.rows, width: names.length }, labels: pool.labels },
      { method, alpha, rng: calibrationRng(profile) },
    ),
  );
  const prediction = predictInterval(cal, { probabilities: p, levels: names }, predictionRng(profile, input.name));
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
