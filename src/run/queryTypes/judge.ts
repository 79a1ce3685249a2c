// judge: pairwise items ({candidates: {a, b}}, the better one as label) → a winner or an escalation along a
// cascade of `--stage` servers ending in human_queue. The request's own judgement is the softmax of each
// candidate's PMI with the story; each stage's judgement of a calibration item is computed here exactly as
// the service computes it (stageJudgement over judgePrompt, the one prompt path's instruct judge prompt), and sent as `stage_probabilities`, so every stage
// is calibrated on its own judgements and the cross-check can recompute every set.
import { guaranteeStatement, type ExampleRecord, type JudgeAnswer } from "../../api/index.js";
import type { PairwiseItem } from "../../datasets/index.js";
import type { QuerySection } from "../../report/index.js";
import { judgePrompt } from "../../service/index.js";
import { coverageBand } from "../coverageBand.js";
import { cachedStageJudgement, cachedStatementPmi } from "./cachedCalls.js";
import type { Driver, Prepared } from "./types.js";

function softmax(xs: readonly number[]): number[] {
  const max = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

export const judgeDriver: Driver = {
  type: "judge", kinds: ["pairwise"], clientEvidence: true, needsStages: true,
  async prepare(items, ctx): Promise<Prepared[]> {
    const list = items as PairwiseItem[];
    const pmi = await cachedStatementPmi(ctx.rows, ctx.adapter, ctx.accessLevel, list.flatMap((i) => Object.values(i.candidates).map((t) => ({ story: i.context, statement: t }))), () => undefined);
    let at = 0;
    const out: Prepared[] = [];
    for (const item of list) {
      const names = Object.keys(item.candidates);
      const p = softmax(names.map(() => pmi[at++]!));
      const evidence = { option_probabilities: Object.fromEntries(names.map((n, j) => [n, p[j]!])) };
      const instructions = `${item.context}\n${item.question ?? "Which candidate is better?"}`;
      const context = { candidates: item.candidates };
      const sorted = [...names].sort();
      const stageProbabilities: Record<string, Record<string, number>> = {};
      for (const stage of ctx.stages) {
        const probabilities = await cachedStageJudgement(ctx.rows, stage, judgePrompt({ instructions }, context, sorted), sorted);
        stageProbabilities[stage.name] = Object.fromEntries(sorted.map((n, j) => [n, probabilities[j]!]));
      }
      const record: ExampleRecord = {
        context, label: item.answer, ...(item.group !== undefined ? { group: item.group } : {}),
        metadata: { id: item.id, evidence: { ...evidence, stage_probabilities: stageProbabilities }, access_level: ctx.accessLevel },
      };
      const cascade = [...ctx.stages.map((s) => ({ backend: { provider: "vllm", name: s.name } })), { backend: "human_queue" }];
      out.push({ id: item.id, record, context, query: { type: "judge", instructions, evidence, cascade }, truth: item.answer });
      ctx.progress(1);
    }
    return out;
  },
  summarise(outcomes, ctx): QuerySection {
    const m = outcomes.length;
    let covered = 0, decided = 0, right = 0, escalated = 0, human = 0;
    for (const { prepared, answer } of outcomes) {
      const a = answer as JudgeAnswer;
      if (a.stages?.[0]?.set.includes(prepared.truth as string)) covered++;
      if (a.escalated_to !== null) escalated++;
      if (a.escalated_to === "human_queue") human++;
      if (a.winner !== null) {
        decided++;
        if (a.winner === prepared.truth) right++;
      }
    }
    const band = coverageBand(m, ctx.calibrationN, ctx.alpha);
    const value = covered / m;
    return {
      guarantee: guaranteeStatement("judge", "coverage", { alpha: ctx.alpha }),
      quantity: "coverage of the first stage's sets",
      value, target: 1 - ctx.alpha, band, inBand: value >= band[0] && value <= band[1], n: m,
      bandNote: "the split-conformal beta-binomial band at 99.9%",
      rates: [
        { name: "escalation rate", value: escalated / m },
        { name: "human queue rate", value: human / m },
        { name: "decided rate", value: decided / m },
        { name: "accuracy of the decided items", value: decided ? right / decided : 1 },
      ],
    };
  },
};
