// route over free-form answers (issue 27, point 6): the run's own model answers first — its greedy answer, graded
// by the task's grader, with the chosen scorer's confidence, from the same cached statistics the gate reads — and
// the service approves that answer or escalates to the `--stage` servers under a cost or accuracy guarantee. The
// first stage is the caller's own model, a `client_evidence` stage whose output and confidence the route query
// carries in `evidence.stage_outputs` (docs/generation.md); each `--stage` is called here on calibration items
// exactly as the service calls it (stageGeneration on the task's prompt) and its output graded by the task's
// grader, so the service calibrates from verdicts and confidences without calling anything and the cross-check
// recomputes every answer.
import type { ExampleRecord, GateAnswer, RouteAnswer } from "../../api/index.js";
import type { Dataset } from "../../datasets/index.js";
import { GENERATION_TASKS, gradeAnswer, type GenerationPromptItem } from "../../evidence/index.js";
import type { QuerySection } from "../../report/index.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import { generationItemsOf } from "../generationPrompts.js";
import type { ResolvedGenerationOptions } from "../generationOptions.js";
import { gateDriver } from "./beliefGate.js";
import { cachedStageGeneration } from "./cachedCalls.js";
import { generationDriver } from "./generation.js";
import { routeSection } from "./route.js";
import type { Driver, DriverContext, Prepared } from "./types.js";

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
      const names = [name, ...ctx.stages.map((s) => s.name)];
      // The served output graded as the own model's answers are: the task's grader against the item's references.
      const measured = routeSection(outcomes, ctx, guaranteeOf(ctx), (o) => grade(o.prepared.id, (o.answer as RouteAnswer).output as string), names, `${task.name}'s grader`);
      const m = outcomes.length;
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
        ...measured,
        rates: [
          ...measured.rates,
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
