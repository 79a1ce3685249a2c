// gate and belief over free-form answers (issue 27, point 6): each item's greedy answer and K samples through the
// evidence cache, graded by the task's grader, every scorer the level allows computed from one set of statistics,
// and the chosen scorer's confidence sent as option_probabilities ({pass, fail} for gate, {yes, no} for belief).
// The measured guarantee is the plain gate's or belief's; the scorers' ranking metrics and items.jsonl come beside.
import type { ExampleRecord } from "../../api/index.js";
import type { Dataset } from "../../datasets/index.js";
import {
  cachedRows, ENTAILMENT_PROMPT, GENERATION_TASKS, generationPromptHash, gradeAnswer, hashTemplateText, itemStatistics, neededStatistics,
  P_TRUE_PROMPT, payloadHash, prepareGenerations, scoredPromptTemplateHash, scorersAt, generationStatistics,
  type GenerationPromptItem, type GenerationPromptSettings, type PreparedGeneration, type StoredStatistics,
} from "../../evidence/index.js";
import { scoreItem, scorerByName, SCORERS, type Scorer } from "../../uncertainty/index.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import { RunInputError } from "../errors.js";
import { generationItemsOf, generationPromptSettings } from "../generationPrompts.js";
import type { ResolvedGenerationOptions } from "../generationOptions.js";
import { writeItemsLog, type ItemLine } from "../itemsLog.js";
import { beliefDriver, gateDriver } from "./beliefGate.js";
import { claimDriver } from "./claim.js";
import { claimPrepared } from "./generationClaim.js";
import { confidenceOf, scorerMetrics, type ScoredGrade } from "./scorerMetrics.js";
import type { Driver, DriverContext, Prepared } from "./types.js";

/** What scores a claim run's claims (generationClaim.ts). */
const CLAIM_SCORE = "claim frequency across the answers (Mohri & Hashimoto)";

/** Scorers computed only when named: Verbalized1S reads a confidence the prompt must ask the model to state. */
export const ON_REQUEST = new Set(["Verbalized1S"]);

export interface ItemDetail extends ScoredGrade {
  line: Pick<ItemLine, "id" | "prompt" | "greedy" | "samples" | "correct" | "grader" | "scores" | "evidence">;
}

/** The scorers a run computes at `level`: every registered one the level allows, and the chosen one. */
export function runScorers(level: DriverContext["accessLevel"], chosen: Scorer): Scorer[] {
  return scorersAt(level, SCORERS.filter((s) => !ON_REQUEST.has(s.name) || s === chosen));
}

/** A free-form driver, and what its prepare step graded and scored (a suite reads every scorer from it: bench/generationLanes.ts). */
export type GenerationDriver = Driver & { scored(): ReadonlyMap<string, ItemDetail>; scorers(): readonly Scorer[] };

/** `onGreedy` sees each item's greedy answer as it is prepared (a route over generated answers sends it: generationRoute.ts). */
export function generationDriver(type: "gate" | "belief" | "claim", options: ResolvedCalibrationOptions, gen: ResolvedGenerationOptions, dataset: Dataset, onGreedy?: (id: string, greedy: string) => void): GenerationDriver {
  const base = type === "gate" ? gateDriver : type === "belief" ? beliefDriver : claimDriver;
  const [yes, no] = type === "gate" ? ["pass", "fail"] : ["yes", "no"];
  const task = GENERATION_TASKS[gen.task];
  const scorer = scorerByName(gen.scorer)!;
  const promptItems = new Map<string, GenerationPromptItem>();
  const prompts = new Map<string, PreparedGeneration>();
  const details = new Map<string, ItemDetail>();
  let promptHash = "";
  let chat: GenerationPromptSettings["chat"] = null;
  let pinnedDate: Date | undefined;
  let graders = new Set<string>();
  let computed: Scorer[] = [];

  const sampling = { samples: gen.samples, temperature: gen.temperature, topP: gen.topP, topK: gen.topK, seed: gen.sampleSeed, maxTokens: gen.maxTokens };

  async function preparePrompts(ctx: DriverContext): Promise<void> {
    if (promptHash) return;
    const settings = await generationPromptSettings({
      task: gen.task, ...(gen.fewshotFile ? { fewshotFile: gen.fewshotFile } : {}), ...(gen.numFewshot !== undefined ? { numFewshot: gen.numFewshot } : {}),
      settings: options.prompt.settings.chatTemplate || options.prompt.settings.system !== undefined
        ? { ...(options.prompt.settings.chatTemplate ? { chatTemplate: options.prompt.settings.chatTemplate } : {}), ...(options.prompt.settings.system !== undefined ? { system: options.prompt.settings.system } : {}) }
        : {},
      datasetOptions: options.datasetOptions,
    }, ctx.adapter);
    const items = generationItemsOf(dataset, gen.task);
    for (const i of items) promptItems.set(i.id, i);
    for (const p of await prepareGenerations(items, settings, ctx.adapter)) prompts.set(p.id, p);
    promptHash = generationPromptHash(settings);
    chat = settings.chat;
    pinnedDate = settings.pinnedDate;
    computed = runScorers(ctx.adapter.accessLevel, scorer);
  }

  /** The task's prompt, the scorer and its settings, the grader and the sampling: what the profile was calibrated on. */
  const profileHash = () => hashTemplateText([
    promptHash, type === "claim" ? "claim:sample-agreement" : scoredPromptTemplateHash(type, scorer), `task:${task.source}`, `sampling:${JSON.stringify(sampling)}`,
  ].join("\n\u0000\n"));

  return {
    type, kinds: ["generation"], clientEvidence: true, needsStages: false,
    scored: () => details,
    scorers: () => computed,
    async profileFields(ctx) {
      await preparePrompts(ctx);
      return { prompt_template_hash: profileHash() };
    },
    async prepare(items, ctx): Promise<Prepared[]> {
      await preparePrompts(ctx);
      if (!scorersAt(ctx.adapter.accessLevel, [scorer]).length) {
        throw new RunInputError(options.model, `--scorer ${scorer.name} reads ${scorer.statistics.join(", ")} (level ${scorer.level}); this model exposes ${ctx.adapter.accessLevel}`);
      }
      const statisticsKey = [...neededStatistics(computed)].sort();
      const recipe = payloadHash({ recipe: "generation-statistics", v: 1, prompt: promptHash, judge: [ENTAILMENT_PROMPT.id, ENTAILMENT_PROMPT.text, P_TRUE_PROMPT.text], statistics: statisticsKey });
      const list = items as Dataset["items"][number][];
      const inputs = list.map((item) => prompts.get((item as { id: string }).id)!);
      // The judge and P(True) prompts reach a chat model as the task's prompts do: a user turn of its template.
      const render = async (text: string) => (await ctx.adapter.renderChat([{ role: "user", content: text }], {
        chatTemplate: chat!.template, ...(pinnedDate ? { pinnedDate } : {}),
      })).text;
      const r = await cachedRows<PreparedGeneration, StoredStatistics>(inputs, {
        cache: ctx.rows.cache, model: ctx.rows.model, batch: 1, onBatch: ctx.progress,
        key: (p) => ({
          fingerprint: ctx.adapter.fingerprint, promptHash: recipe, contentHash: payloadHash({ v: 1, prompt: p.prompt, rendered: p.rendered, until: p.until }),
          accessLevel: ctx.adapter.accessLevel, sampling: JSON.stringify(sampling),
        }),
        compute: async ([p]) => [await generationStatistics(ctx.adapter, {
          prompt: p!.prompt, rendered: p!.rendered, question: task.text(task.prepare(promptItems.get(p!.id)!)), until: p!.until,
        }, computed, sampling, p!.rendered ? { render } : {})],
      });
      ctx.rows.hits += r.hits;
      ctx.rows.computed += r.computed;
      ctx.rows.redone += r.redone;
      graders = new Set();
      return inputs.map((p, k) => {
        const row = r.rows[k]!;
        const stats = itemStatistics(row);
        const { scores } = scoreItem(stats, computed);
        const grade = gradeAnswer(task, row.generation.greedy.text, promptItems.get(p.id)!);
        graders.add(grade.grader);
        const confidence = confidenceOf(scorer, scores[scorer.name] ?? NaN);
        const evidence = { option_probabilities: { [yes]: confidence, [no]: 1 - confidence } };
        const label = grade.correct ? yes : no;
        const greedy = row.generation.greedy.text;
        onGreedy?.(p.id, greedy);
        details.set(p.id, {
          scores, correct: grade.correct,
          line: { id: p.id, prompt: p.prompt, greedy, samples: row.generation.samples.map((s) => s.text), correct: grade.correct, grader: grade.grader, scores, evidence },
        });
        if (type === "claim") {
          return claimPrepared({ id: p.id, prompt: p.prompt, greedy, samples: row.generation.samples.map((x) => x.text) }, ctx.accessLevel, (claim) => gradeAnswer(task, claim, promptItems.get(p.id)!).correct);
        }
        const record: ExampleRecord = {
          context: p.prompt, label, metadata: { id: p.id, evidence, access_level: ctx.accessLevel, scorer: scorer.name, grader: `${task.name}: ${grade.grader}` },
        };
        const instructions = type === "gate" ? `Approve the answer "${greedy.trim()}"` : `Is "${greedy.trim()}" a right answer?`;
        const query = type === "gate"
          ? { type, instructions, evidence, guarantee: ctx.guarantee ?? "risk", target: ctx.target ?? ctx.alpha, ...((ctx.guarantee ?? "risk") === "risk_high_probability" ? { delta: ctx.delta ?? 0.1 } : {}) }
          : { type, instructions, evidence };
        return { id: p.id, record, context: p.prompt, query, truth: label };
      });
    },
    summarise(outcomes, ctx) {
      const section = base.summarise(outcomes, ctx);
      const testIds = new Set(outcomes.map((o) => o.prepared.id));
      const grades = [...details.entries()];
      const test = grades.filter(([id]) => testIds.has(id)).map(([, d]) => d);
      const calibration = grades.filter(([id]) => !testIds.has(id)).map(([, d]) => d);
      const metrics = scorerMetrics(computed, calibration, test, type === "claim" ? undefined : {
        type, target: ctx.target ?? ctx.alpha, guarantee: ctx.guarantee ?? "risk", delta: ctx.delta ?? 0.1, seed: options.seed,
      });
      // A claim run's claims are scored by their frequency across the answers; the scorers rank the whole answers.
      const chosen = type === "claim" ? undefined : metrics.find((m) => m.scorer === scorer.name)!;
      const grader = `${task.name}: ${[...graders].join(", ")}`;
      return {
        ...section,
        rates: [
          ...section.rates,
          { name: "accuracy of the greedy answers (test)", value: test.filter((d) => d.correct).length / Math.max(1, test.length), note: grader },
          ...(chosen ? [
            { name: `ROC-AUC of ${scorer.name}`, value: chosen.rocAuc },
            { name: `PRR of ${scorer.name}`, value: chosen.prr },
            { name: `ECE of ${scorer.name} before Venn–Abers`, value: chosen.eceBefore },
            { name: `ECE of ${scorer.name} after Venn–Abers`, value: chosen.eceAfter },
          ] : []),
        ],
        generation: { task: gen.task, grader, scorer: chosen ? scorer.name : CLAIM_SCORE, samples: gen.samples, sampling, scorers: metrics },
      };
    },
    async finish(outcomes, prepared) {
      if (options.out === undefined) return;
      const answers = new Map(outcomes.map((o) => [o.prepared.id, o.answer]));
      // In the dataset's order, whatever the split: a resumed run writes the file an uninterrupted one does.
      const order = new Map([...promptItems.keys()].map((id, i) => [id, i]));
      const inFileOrder = [...prepared].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      const lines: ItemLine[] = inFileOrder.map((p) => ({
        ...details.get(p.id)!.line, split: answers.has(p.id) ? "test" : "calibration", answer: answers.get(p.id) ?? null,
      }));
      await writeItemsLog(options.out, lines);
    },
  };
}
