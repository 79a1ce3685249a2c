// route over free-form answers (issue 27, point 6): the run's own model answers first — its greedy answer, graded
// by the task's grader, with the chosen scorer's confidence, from the same cached statistics the gate reads — and
// the service approves that answer or escalates to the `--stage` servers under a cost or accuracy guarantee. The
// first stage is the caller's own model, a `client_evidence` stage whose output and confidence the route query
// carries in `evidence.stage_outputs` (docs/generation.md); each `--stage` is called here on calibration items
// exactly as the service calls it (stageGeneration on the task's prompt) and its output graded by the task's
// grader, so the service calibrates from verdicts and confidences without calling anything and the cross-check
// recomputes every answer.
import { guaranteeStatement, type ExampleRecord, type GateAnswer, type RouteAnswer } from "../../api/index.js";
import type { Dataset } from "../../datasets/index.js";
import { GENERATION_TASKS, gradeAnswer, type GenerationPromptItem } from "../../evidence/index.js";
import type { QuerySection } from "../../report/index.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import { generationItemsOf } from "../generationPrompts.js";
import type { ResolvedGenerationOptions } from "../generationOptions.js";
import { BAND_LEVEL, hoeffding } from "./bands.js";
import { gateDriver } from "./beliefGate.js";
import { cachedStageGeneration } from "./cachedCalls.js";
import { generationDriver } from "./generation.js";
import type { Driver, DriverContext, Prepared } from "./types.js";

/** The service's δ for route certification (docs/service.md). */
const ROUTE_DELTA = 0.05;

/** The name of the run's own model as a cascade stage: the profile's client_evidence backend name. */
const ownStageName = (ctx: Pick<DriverContext, "adapter">): string => `${ctx.adapter.provider}:${ctx.adapter.model}`;

/** The default budget: the own model costs the service nothing; the stages are reached about half the time. */
const defaultTarget = (ctx: Pick<DriverContext, "stages">): number => 0.5 * ctx.stages.reduce((s, st) => s + st.costPerCall, 0);

function guaranteeOf(ctx: Pick<DriverContext, "guarantee" | "target" | "alpha" | "stages">): { guarantee: "cost_budget" | "accuracy"; target: number } {
  const guarantee = (ctx.guarantee ?? "cost_budget") as "cost_budget" | "accuracy";
  return { guarantee, target: guarantee === "cost_budget" ? ctx.target ?? defaultTarget(ctx) : 1 - ctx.alpha };
}

/** What prepare learns of an item beyond its route query: the own answer and every stage's, graded. */
interface Graded {
  gate: Prepared;
  own: { output: string; confidence: number; correct: boolean };
  stages: Record<string, { confidence: number; correct: boolean }>;
}

export function generationRouteDriver(options: ResolvedCalibrationOptions, gen: ResolvedGenerationOptions, dataset: Dataset): Driver {
  const task = GENERATION_TASKS[gen.task];
  const greedy = new Map<string, string>();
  // The gate's driver computes, caches, grades and scores the own model's answers; its items are read here.
  const own = generationDriver("gate", options, gen, dataset, (id, text) => greedy.set(id, text));
  const items = new Map<string, GenerationPromptItem>(generationItemsOf(dataset, gen.task).map((i) => [i.id, i]));
  const graded = new Map<string, Graded>();
  const grade = (id: string, output: string) => gradeAnswer(task, output, items.get(id)!).correct;
  let name = "";

  return {
    type: "route", kinds: ["generation"], clientEvidence: false, needsStages: true,
    profileFields: (ctx) => own.profileFields!(ctx),
    async prepare(list, ctx): Promise<Prepared[]> {
      const { guarantee, target } = guaranteeOf(ctx);
      name = ownStageName(ctx);
      const gates = await own.prepare(list, { ...ctx, progress: () => undefined });
      const out: Prepared[] = [];
      for (const gate of gates) {
        const confidence = (gate.query.evidence as { option_probabilities: { pass: number } }).option_probabilities.pass;
        const answer = { output: greedy.get(gate.id)!, confidence, correct: gate.truth === "pass" };
        // The stage is given the task's prompt as the service gives it (stagePrompt of a query with no instructions).
        const prompt = gate.context as string;
        const verdicts: Record<string, string> = { [name]: answer.correct ? "correct" : "incorrect" };
        const confidences: Record<string, number> = { [name]: confidence };
        const stages: Graded["stages"] = {};
        for (const stage of ctx.stages) {
          const g = await cachedStageGeneration(ctx.rows, stage, prompt);
          stages[stage.name] = { confidence: g.confidence, correct: grade(gate.id, g.output) };
          verdicts[stage.name] = stages[stage.name]!.correct ? "correct" : "incorrect";
          confidences[stage.name] = g.confidence;
        }
        graded.set(gate.id, { gate, own: answer, stages });
        const record: ExampleRecord = {
          context: prompt, label: { stages: verdicts },
          metadata: { ...gate.record.metadata, evidence: { stage_confidence: confidences } },
        };
        const query = {
          type: "route", guarantee, ...(guarantee === "cost_budget" ? { target_cents: target } : { alpha: ctx.alpha }),
          cascade: [
            { backend: { provider: "client_evidence", name, access_level: ctx.accessLevel } },
            ...ctx.stages.map((s) => ({ backend: { provider: "vllm", name: s.name } })),
          ],
          evidence: { stage_outputs: { [name]: { output: answer.output, confidence } } },
        };
        out.push({ id: gate.id, record, context: prompt, query, truth: gate.truth });
        ctx.progress(1);
      }
      return out;
    },
    summarise(outcomes, ctx): QuerySection {
      const m = outcomes.length;
      const { guarantee, target } = guaranteeOf(ctx);
      const answers = outcomes.map((o) => o.answer as RouteAnswer);
      const names = [name, ...ctx.stages.map((s) => s.name)];
      const cost = answers.reduce((s, a) => s + a.cost_cents, 0) / m;
      // The served output graded as the own model's answers are: the task's grader against the item's references.
      const right = outcomes.filter((o) => typeof (o.answer as RouteAnswer).output === "string" && grade(o.prepared.id, (o.answer as RouteAnswer).output as string)).length;
      const accuracy = right / m;
      const maxCost = ctx.stages.reduce((s, st) => s + st.costPerCall, 0);
      const budget = guarantee === "cost_budget";
      const value = budget ? cost : accuracy;
      const band: [number, number] = budget ? [0, target + hoeffding(m, maxCost)] : [Math.max(0, target - hoeffding(m, 1)), 1];
      const served = (stage: string) => answers.filter((a) => a.served_by === stage).length / m;
      const alone = (of: (g: Graded) => boolean) => outcomes.filter((o) => of(graded.get(o.prepared.id)!)).length / m;
      // The own model's scorers, ranked as in a gate run: its first stage is a gate on the own answer.
      const asGate = outcomes.map((o) => ({
        prepared: graded.get(o.prepared.id)!.gate,
        answer: { type: "gate", decision: (o.answer as RouteAnswer).escalated ? "escalate" : "auto_approve", guarantee: o.answer.guarantee } as GateAnswer,
      }));
      const gateCtx = { ...ctx, guarantee: "risk", target: ctx.alpha, delta: undefined, calibration: ctx.calibration.map((p) => graded.get(p.id)!.gate) };
      const scored = own.summarise(asGate, gateCtx);
      const gateRates = gateDriver.summarise(asGate, gateCtx).rates.length;
      return {
        guarantee: guaranteeStatement("route", guarantee, budget ? { target, delta: ROUTE_DELTA } : { alpha: ctx.alpha, delta: ROUTE_DELTA }),
        quantity: budget ? "mean cost per test query (cents)" : "accuracy of the served outputs",
        value, target, band, inBand: value >= band[0] && value <= band[1], n: m,
        bandNote: `Hoeffding's ${BAND_LEVEL * 100}% deviation of a mean of ${m} values in [0, ${budget ? `${maxCost}¢` : "1"}] around the target; the guarantee holds for a calibration with probability ≥ 1 − δ, δ = ${ROUTE_DELTA}, so a draw lands outside with probability up to ${ROUTE_DELTA} + ${Number((1 - BAND_LEVEL).toFixed(4))}`,
        rates: [
          { name: "escalation rate", value: answers.filter((a) => a.escalated).length / m },
          ...names.map((s) => ({ name: `served by ${s}`, value: served(s) })),
          { name: budget ? "accuracy of the served outputs" : "mean cost per test query (cents)", value: budget ? accuracy : cost, note: `${task.name}'s grader` },
          { name: `accuracy of ${names[0]} alone`, value: alone((g) => g.own.correct) },
          ...ctx.stages.map((s) => ({ name: `accuracy of ${s.name} alone`, value: alone((g) => g.stages[s.name]!.correct) })),
          ...scored.rates.slice(gateRates).filter((r) => !r.name.startsWith("accuracy of the greedy answers")),
        ],
        ...(scored.generation ? { generation: scored.generation } : {}),
      };
    },
    finish: (outcomes, prepared) => own.finish!(outcomes, prepared),
  };
}
