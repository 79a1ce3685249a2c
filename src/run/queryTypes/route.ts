// route: reference items (a prompt and the answer it should start with) → served_by / escalated / cost_cents
// over a cascade of `--stage` servers. Each stage's output and confidence on a calibration item are computed
// here exactly as the service computes them (stageGeneration over stagePrompt) and sent as verdicts and
// `stage_confidence`, so the service calibrates from them without calling the stages and the cross-check can
// recompute the thresholds. The report measures the mean cost against target_cents (cost_budget) or the
// accuracy against 1 − α (accuracy).
import { guaranteeStatement, type ExampleRecord, type RouteAnswer } from "../../api/index.js";
import type { ReferenceItem } from "../../datasets/index.js";
import type { QuerySection } from "../../report/index.js";
import { matchesReference, stagePrompt } from "../../service/index.js";
import { cachedStageGeneration } from "./cachedCalls.js";
import { BAND_LEVEL, hoeffding } from "./bands.js";
import type { Driver, DriverContext, Prepared } from "./types.js";

export const ROUTE_GUARANTEES = ["cost_budget", "accuracy"] as const;

/** The default budget: the first stage always, the second about half the time. */
export const defaultTargetCents = (ctx: Pick<DriverContext, "stages">): number =>
  ctx.stages[0]!.costPerCall + 0.5 * ctx.stages.slice(1).reduce((s, st) => s + st.costPerCall, 0);

/** The service's δ for route certification (docs/service.md). */
export const ROUTE_DELTA = 0.05;

function guaranteeOf(ctx: Pick<DriverContext, "guarantee" | "target" | "alpha" | "stages">): { guarantee: string; target: number } {
  const guarantee = ctx.guarantee ?? "cost_budget";
  return { guarantee, target: guarantee === "cost_budget" ? ctx.target ?? defaultTargetCents(ctx) : 1 - ctx.alpha };
}

export const routeDriver: Driver = {
  type: "route", kinds: ["reference"], clientEvidence: false, needsStages: true,
  async prepare(items, ctx): Promise<Prepared[]> {
    const { guarantee, target } = guaranteeOf(ctx);
    const out: Prepared[] = [];
    for (const item of items as ReferenceItem[]) {
      const prompt = stagePrompt(item.question, item.context);
      const verdicts: Record<string, string> = {};
      const confidence: Record<string, number> = {};
      for (const stage of ctx.stages) {
        const g = await cachedStageGeneration(ctx.rows, stage, prompt);
        verdicts[stage.name] = matchesReference(g.output, item.reference) ? "correct" : "incorrect";
        confidence[stage.name] = g.confidence;
      }
      const record: ExampleRecord = {
        context: item.context, label: { stages: verdicts }, ...(item.group !== undefined ? { group: item.group } : {}),
        metadata: { id: item.id, reference: item.reference, evidence: { stage_confidence: confidence } },
      };
      const query = {
        type: "route", guarantee, ...(guarantee === "cost_budget" ? { target_cents: target } : { alpha: ctx.alpha }),
        ...(item.question !== undefined ? { instructions: item.question } : {}),
        cascade: ctx.stages.map((s) => ({ backend: { provider: "vllm", name: s.name } })),
      };
      out.push({ id: item.id, record, context: item.context, query, truth: item.reference });
      ctx.progress(1);
    }
    return out;
  },
  summarise(outcomes, ctx): QuerySection {
    return routeSection(outcomes, ctx, guaranteeOf(ctx), (o) => matchesReference((o.answer as RouteAnswer).output as string, o.prepared.truth as string), ctx.stages.map((s) => s.name));
  },
};

type Outcome = Parameters<Driver["summarise"]>[0][number];

/**
 * A route run's measured guarantee: the mean cost against the budget (cost_budget) or the served outputs' accuracy
 * against 1 − α (accuracy), in Hoeffding's band, with the escalation rate and each stage's share. `right` grades a
 * served output; `accuracyNote` names the grader.
 */
export function routeSection(
  outcomes: readonly Outcome[], ctx: Pick<DriverContext, "alpha" | "stages">, { guarantee, target }: { guarantee: string; target: number },
  right: (o: Outcome) => boolean, stageNames: readonly string[], accuracyNote?: string,
): QuerySection {
  const m = outcomes.length;
  const answers = outcomes.map((o) => o.answer as RouteAnswer);
  const cost = answers.reduce((s, a) => s + a.cost_cents, 0) / m;
  const accuracy = outcomes.filter((o) => typeof (o.answer as RouteAnswer).output === "string" && right(o)).length / m;
  const maxCost = ctx.stages.reduce((s, st) => s + st.costPerCall, 0);
  const budget = guarantee === "cost_budget";
  const value = budget ? cost : accuracy;
  const band: [number, number] = budget ? [0, target + hoeffding(m, maxCost)] : [Math.max(0, target - hoeffding(m, 1)), 1];
  const served = (name: string) => answers.filter((a) => a.served_by === name).length / m;
  return {
    guarantee: guaranteeStatement("route", guarantee, budget ? { target, delta: ROUTE_DELTA } : { alpha: ctx.alpha, delta: ROUTE_DELTA }),
    quantity: budget ? "mean cost per test query (cents)" : "accuracy of the served outputs",
    value, target, band, inBand: value >= band[0] && value <= band[1], n: m,
    bandNote: `Hoeffding's ${BAND_LEVEL * 100}% deviation of a mean of ${m} values in [0, ${budget ? `${maxCost}¢` : "1"}] around the target; the guarantee holds for a calibration with probability ≥ 1 − δ, δ = ${ROUTE_DELTA}, so a draw lands outside with probability up to ${ROUTE_DELTA} + ${Number((1 - BAND_LEVEL).toFixed(4))}`,
    rates: [
      { name: "escalation rate", value: answers.filter((a) => a.escalated).length / m },
      ...stageNames.map((name) => ({ name: `served by ${name}`, value: served(name) })),
      { name: budget ? "accuracy of the served outputs" : "mean cost per test query (cents)", value: budget ? accuracy : cost, ...(accuracyNote && budget ? { note: accuracyNote } : {}) },
    ],
  };
}
