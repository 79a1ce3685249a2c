// judge queries: a conformal set over the candidates of `context.candidates`. A singleton names the winner;
// otherwise the query escalates along its cascade: a model stage judges again (its set calibrated on its own
// judgements of the profile's examples, judgeStages.ts), `human_queue` enqueues the item for a person and ends the
// cascade with no winner. The answer lists each stage reached (`stages`), so a client can recompute it.
import { judgeCandidates, type JudgeAnswer, type JudgeQuery, type JudgeStageTrail } from "../../api/index.js";
import { setMethodOf } from "./calibrations.js";
import { HUMAN_QUEUE, judgeStage, type Rng } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { judgePrompt, modelStagePool, REQUEST_STAGE, requestStagePool, stageCalibration } from "./judgeStages.js";
import { minimumNOf, type ProbabilityPool } from "./pools.js";
import { whenBuilt } from "./rebuilds.js";
import { predictionRng } from "./seeds.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";
import { invalidField } from "../errors.js";

export { judgePrompt } from "./judgeStages.js";

const argmax = (p: Float64Array): number => p.reduce((best, v, j) => (v > p[best]! ? j : best), 0);

export async function answerJudge(input: QueryInput<JudgeQuery>): Promise<QueryOutcome> {
  const { query, profile, name } = input;
  const candidates = judgeCandidates(input.context);
  if (!candidates || candidates.length < 2) {
    throw invalidField("context.candidates", "A judge query needs `context.candidates`, an object of at least 2 named candidates");
  }
  const sorted = [...candidates].sort();
  const alpha = query.alpha ?? profile.meta.alpha;
  const method = setMethodOf(profile);
  const needed = minimumNOf(alpha);
  const cascade = query.cascade ?? [];
  if (!input.evidence && (!cascade[0] || cascade[0].backend === HUMAN_QUEUE)) {
    throw invalidField(`queries.${name}.cascade`, `\`queries.${name}\` has no evidence, so its cascade must start with a model backend`);
  }
  const rng: Rng = predictionRng(input);
  const trail: JudgeStageTrail[] = [];
  const estimated = fromSamples(input.evidence);
  let winner: string | null = null;
  let escalatedTo: string | null = null;
  let humanItem: string | undefined;
  let lastN = 0;
  let lastEstimated = estimated;
  // Stage 0 is the query's own evidence when it has some; each model stage then judges with its own calibration.
  const stageCount = (input.evidence ? 1 : 0) + cascade.length;
  for (let s = 0; s < stageCount; s++) {
    const c = input.evidence ? s - 1 : s;
    const stage = c < 0 ? undefined : cascade[c]!.backend;
    const path = `queries.${name}.cascade.${c}.backend`;
    if (stage === HUMAN_QUEUE) {
      escalatedTo = HUMAN_QUEUE;
      humanItem = await input.stages.enqueueHuman({
        profile: profile.name, query: name, context: input.context,
        // The query's own evidence goes with it: a person's answer then becomes an example of the request stage.
        detail: { type: "judge", instructions: query.instructions, candidates: sorted, last_set: trail.at(-1)?.set ?? [], ...(input.evidence ? { evidence: input.evidence } : {}) },
      });
      break;
    }
    const stageName = stage === undefined ? REQUEST_STAGE : input.stages.stageName(stage, path);
    const pool: ProbabilityPool = stage === undefined ? requestStagePool(input, sorted) : await modelStagePool(input, stage, path, stageName, sorted);
    const p = stage === undefined ? queryProbabilities(input, sorted) : await input.stages.judge(stage, path, judgePrompt(query, input.context, sorted), sorted);
    const probabilities = Object.fromEntries(sorted.map((x, j) => [x, p[j]!]));
    if (s > 0) escalatedTo = stageName;
    lastN = pool.n;
    lastEstimated = estimated || pool.estimated > 0;
    const base = { alpha, method, n: pool.n, estimated: estimated || pool.estimated > 0 };
    if (pool.n < needed) {
      // This stage cannot be calibrated: its most probable candidate, heuristically (424).
      trail.push({ stage: stageName, probabilities, set: [] });
      const answer: JudgeAnswer = {
        type: "judge", winner: sorted[argmax(p)]!, escalated_to: escalatedTo, stages: trail,
        guarantee: heuristicGuarantee(input, { ...base, needed, wanted: `a judgement by stage "${stageName}" at alpha ${alpha}` }),
      };
      return { answer, insufficient: true };
    }
    // A first build of a long calibration is waited for here, so that the stages already called are not called again.
    const calibrated = await whenBuilt(() => stageCalibration(input, stageName, pool, method, alpha));
    const step = judgeStage({ name: stageName, calibrated, probabilities: p, candidates: sorted }, rng);
    trail.push({ stage: stageName, probabilities, set: step.set });
    winner = step.winner;
    if (winner !== null) break;
  }
  const last = trail.at(-1)!;
  const answer: JudgeAnswer = {
    type: "judge",
    winner,
    escalated_to: escalatedTo,
    guarantee: guarantee(input, {
      alpha, method, n: lastN, estimated: lastEstimated,
      kind: "coverage",
      ...(winner === null ? { reason: escalatedTo === HUMAN_QUEUE ? "no stage was confident; queued for a person" : `the last set was ${JSON.stringify(last.set)}: no single winner at alpha ${alpha}` } : {}),
    }),
    stages: trail,
  };
  if (humanItem) (answer as Record<string, unknown>).human_queue_item = humanItem;
  return { answer, insufficient: false };
}
