// judge queries: a conformal set over the candidates of `context.candidates`. A singleton names the winner;
// otherwise the query escalates along its cascade: a model stage judges again (its set calibrated on the same
// profile), `human_queue` enqueues the item for a person and ends the cascade with no winner.
import { judgeCandidates, type JudgeAnswer, type JudgeQuery } from "../../api/index.js";
import { setCalibration, setMethodOf } from "./calibrations.js";
import { HUMAN_QUEUE, judgeStage, type Rng } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { probabilityPool, minimumNOf } from "./pools.js";
import { predictionRng } from "./seeds.js";
import { queryProbabilities } from "./setQuery.js";
import type { QueryInput, QueryOutcome } from "./types.js";
import { invalidField } from "../errors.js";

export function judgePrompt(query: JudgeQuery, context: unknown, candidates: readonly string[]): string {
  const texts = (context as { candidates: Record<string, unknown> }).candidates;
  const lines = candidates.map((c) => `${c}: ${typeof texts[c] === "string" ? texts[c] : JSON.stringify(texts[c])}`);
  return `${query.instructions}\n\nCandidates:\n${lines.join("\n")}\n\nThe best candidate is:`;
}

export async function answerJudge(input: QueryInput<JudgeQuery>): Promise<QueryOutcome> {
  const { query, profile, name } = input;
  const candidates = judgeCandidates(input.context);
  if (!candidates || candidates.length < 2) {
    throw invalidField("context.candidates", "A judge query needs `context.candidates`, an object of at least 2 named candidates");
  }
  const sorted = [...candidates].sort();
  const alpha = query.alpha ?? profile.meta.alpha;
  const method = setMethodOf(profile);
  const pool = probabilityPool(profile, sorted, { grouped: false });
  const needed = minimumNOf(alpha);
  const cascade = query.cascade ?? [];
  const base = { alpha, method, n: pool.n, estimated: fromSamples(input.evidence) || pool.estimated > 0 };
  // The first judgement: the query's own evidence, else the first cascade stage.
  let stageIndex = 0;
  let first: Float64Array;
  if (input.evidence) {
    first = queryProbabilities(input, sorted);
  } else {
    const stage = cascade[0];
    if (!stage || stage.backend === HUMAN_QUEUE) {
      throw invalidField(`queries.${name}.cascade`, `\`queries.${name}\` has no evidence, so its cascade must start with a model backend`);
    }
    first = await input.stages.judge(stage.backend, `queries.${name}.cascade.0.backend`, judgePrompt(query, input.context, sorted), sorted);
    stageIndex = 1;
  }
  if (pool.n < needed) {
    let best = 0;
    for (let j = 1; j < sorted.length; j++) if (first[j]! > first[best]!) best = j;
    const answer: JudgeAnswer = {
      type: "judge",
      winner: sorted[best]!,
      escalated_to: null,
      guarantee: heuristicGuarantee(input, { ...base, needed, wanted: `a judgement at alpha ${alpha}` }),
    };
    return { answer, insufficient: true };
  }
  const cal = setCalibration(profile, pool, method, alpha);
  const rng: Rng = predictionRng(profile, name);
  let step = judgeStage({ name: "request", calibrated: cal, probabilities: first, candidates: sorted }, rng);
  let escalatedTo: string | null = null;
  let humanItem: string | undefined;
  for (; step.winner === null && stageIndex < cascade.length; stageIndex++) {
    const stage = cascade[stageIndex]!;
    const path = `queries.${name}.cascade.${stageIndex}.backend`;
    if (stage.backend === HUMAN_QUEUE) {
      escalatedTo = HUMAN_QUEUE;
      humanItem = await input.stages.enqueueHuman({
        profile: profile.name,
        query: name,
        context: input.context,
        detail: { type: "judge", instructions: query.instructions, candidates: sorted, last_set: step.set },
      });
      break;
    }
    escalatedTo = input.stages.stageName(stage.backend, path);
    const p = await input.stages.judge(stage.backend, path, judgePrompt(query, input.context, sorted), sorted);
    step = judgeStage({ name: escalatedTo, calibrated: cal, probabilities: p, candidates: sorted }, rng);
  }
  const answer: JudgeAnswer = {
    type: "judge",
    winner: step.winner,
    escalated_to: escalatedTo,
    guarantee: guarantee(input, {
      ...base,
      kind: "coverage",
      n: cal.n,
      ...(step.winner === null ? { reason: escalatedTo === HUMAN_QUEUE ? "no stage was confident; queued for a person" : `the last set was ${JSON.stringify(step.set)}: no single winner at alpha ${alpha}` } : {}),
    }),
  };
  if (humanItem) (answer as Record<string, unknown>).human_queue_item = humanItem;
  return { answer, insufficient: false };
}
