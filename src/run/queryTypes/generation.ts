// gate and belief over free-form answers (issue 27, point 6): each item's greedy answer and K samples through the
// evidence cache, graded by the task's grader, every scorer the level allows computed from one set of statistics,
// and the chosen scorer's confidence sent as option_probabilities ({pass, fail} for gate, {yes, no} for belief).
// The measured guarantee is the plain gate's or belief's; the scorers' ranking metrics and items.jsonl come beside.
import type { ExampleRecord } from "../../api/index.js";
import type { Dataset } from "../../datasets/index.js";
import {
  GENERATION_TASKS, generationPromptHash, hashTemplateText, itemStatistics, prepareGenerations, scoredPromptTemplateHash, scorersAt,
  type GenerationPromptItem, type GenerationPromptSettings, type PreparedGeneration,
} from "../../evidence/index.js";
import { scoreItem, scorerByName, SCORERS, type Scorer, type StatisticName } from "../../uncertainty/index.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import { RunInputError, RunOptionError } from "../errors.js";
import { generationItemsOf, generationPromptSettings } from "../generationPrompts.js";
import type { ResolvedGenerationOptions } from "../generationOptions.js";
import { writeItemsLog, type ItemLine } from "../itemsLog.js";
import { beliefDriver, gateDriver } from "./beliefGate.js";
import { claimDriver } from "./claim.js";
import { claimPrepared, claimsOf } from "./generationClaim.js";
import { claimScoreName, graderKey, gradeItems, scoringModels, type ScoringModels } from "./generationGrades.js";
import { cachedItemRows, type GenerationInput } from "./generationRows.js";
import { confidenceOf, scorerMetrics, type ScoredGrade } from "./scorerMetrics.js";
import type { Driver, DriverContext, Prepared } from "./types.js";

/** Statistics that judge every pair of samples (K(K−1) prompts) or the greedy answer against each (2K). */
const PAIRWISE = new Set<StatisticName>(["semantic_matrix_entail", "semantic_matrix_contra", "greedy_sentence_similarity"]);

/**
 * Scorers computed only when named (--scorer, --scorers): Verbalized1S reads a confidence the prompt must ask the
 * model to state; the pairwise ones cost more judge prompts per item than the semantic classes' at most K × classes.
 */
export const onRequest = (s: Scorer): boolean => s.name === "Verbalized1S" || s.statistics.some((n) => PAIRWISE.has(n));

export interface ItemDetail extends ScoredGrade {
  line: Pick<ItemLine, "id" | "prompt" | "greedy" | "samples" | "correct" | "grader" | "scores" | "evidence"> & { judge?: unknown; claims?: unknown };
}

/**
 * The scorers a run computes at `level`, in the registry's order: the chosen one, and `requested` (a list, or
 * "all" but Verbalized1S), by default every one the level allows but those computed only on request.
 */
export function runScorers(level: DriverContext["accessLevel"], chosen: Scorer, requested?: readonly Scorer[] | "all"): Scorer[] {
  const base = requested === undefined ? SCORERS.filter((s) => !onRequest(s)) : requested === "all" ? SCORERS.filter((s) => s.name !== "Verbalized1S") : requested;
  return scorersAt(level, SCORERS.filter((s) => s === chosen || base.includes(s)));
}

/** A free-form driver, and what its prepare step graded and scored (a suite reads every scorer from it: bench/generationLanes.ts). */
export type GenerationDriver = Driver & { scored(): ReadonlyMap<string, ItemDetail>; scorers(): readonly Scorer[] };

/** `onGreedy` sees each item's greedy answer as it is prepared (a route over generated answers sends it: generationRoute.ts). */
export function generationDriver(type: "gate" | "belief" | "claim", options: ResolvedCalibrationOptions, gen: ResolvedGenerationOptions, dataset: Dataset, onGreedy?: (id: string, greedy: string) => void): GenerationDriver {
  const base = type === "gate" ? gateDriver : type === "belief" ? beliefDriver : claimDriver;
  const [yes, no] = type === "gate" ? ["pass", "fail"] : ["yes", "no"];
  const task = GENERATION_TASKS[gen.task];
  const scorer = scorerByName(gen.scorer)!;
  const requested = gen.scorers === undefined || gen.scorers === "all" ? gen.scorers : gen.scorers.map((n) => scorerByName(n)!);
  let models: ScoringModels | undefined;
  if (type !== "claim" && gen.claimScore !== "frequency") throw new RunOptionError("claim-score", `scores the claims of --query-type claim, not ${type} queries`);
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
    computed = runScorers(ctx.adapter.accessLevel, scorer, requested);
    const rendered = [...prompts.values()].some((p) => p.rendered);
    // The judge and P(True) prompts reach a chat model as the task's prompts do: a user turn of its template.
    const render = async (text: string) => (await ctx.adapter.renderChat([{ role: "user", content: text }], {
      chatTemplate: chat!.template, ...(pinnedDate ? { pinnedDate } : {}),
    })).text;
    models = await scoringModels(ctx, gen, options.model, rendered ? { render, renderKey: promptHash } : { renderKey: null });
  }

  /** The task's prompt, the scorer and its settings, the grader and the sampling: what the profile was calibrated on. */
  const profileHash = () => hashTemplateText([
    promptHash, type === "claim" ? (gen.claimScore === "p_true" ? claimScoreName(gen.claimScore) : "claim:sample-agreement") : scoredPromptTemplateHash(type, scorer),
    `task:${task.source}`, `sampling:${JSON.stringify(sampling)}`, ...(models?.judge ? [graderKey(models.judge)] : []),
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
      const unknown = requested === undefined || requested === "all" ? [] : requested.filter((x) => !scorersAt(ctx.adapter.accessLevel, [x]).length);
      if (unknown.length) throw new RunInputError(options.model, `--scorers ${unknown.map((x) => x.name).join(", ")}: this model exposes ${ctx.adapter.accessLevel}, below what they read`);
      const list = items as Dataset["items"][number][];
      const inputs: GenerationInput[] = list.map((item) => {
        const p = prompts.get((item as { id: string }).id)!;
        return { id: p.id, prompt: p.prompt, rendered: p.rendered, question: task.text(task.prepare(promptItems.get(p.id)!)), until: p.until };
      });
      const { generations, judged } = await cachedItemRows(ctx.rows, models!.own, promptHash, inputs, sampling, computed, ctx.progress);
      const claims = type === "claim" ? generations.map((g) => claimsOf(g.greedy.text)) : undefined;
      const graded = await gradeItems(ctx.rows, models!, gen, task, inputs.map((input, k) => ({
        input, item: promptItems.get(input.id)!, greedy: generations[k]!.greedy.text, claims: claims?.[k] ?? [],
      })));
      graders = new Set();
      return inputs.map((p, k) => {
        const row = { generation: generations[k]!, judged: judged[k]! };
        const stats = itemStatistics(row);
        const { scores } = scoreItem(stats, computed);
        const { grade, claimGrades, claimScores, judge } = graded[k]!;
        graders.add(grade.grader);
        const confidence = confidenceOf(scorer, scores[scorer.name] ?? NaN);
        const evidence = { option_probabilities: { [yes]: confidence, [no]: 1 - confidence } };
        const label = grade.correct ? yes : no;
        const greedy = row.generation.greedy.text;
        onGreedy?.(p.id, greedy);
        const claimItem = type === "claim"
          ? claimPrepared({ id: p.id, prompt: p.prompt, greedy, samples: row.generation.samples.map((x) => x.text) }, ctx.accessLevel, (_, i) => claimGrades[i]!, claimScores)
          : undefined;
        const sent = (claimItem?.query.evidence as { samples: [{ claims: { text: string; score: number }[] }] } | undefined)?.samples[0].claims;
        const claimLines = sent?.map((c, i) => ({ ...c, correct: claimGrades[i]! }));
        details.set(p.id, {
          scores, correct: grade.correct,
          line: {
            id: p.id, prompt: p.prompt, greedy, samples: row.generation.samples.map((s) => s.text), correct: grade.correct, grader: grade.grader, scores, evidence,
            ...(judge ? { judge } : {}), ...(claimLines ? { claims: claimLines } : {}),
          },
        });
        if (claimItem) return claimItem;
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
      const grader = `${task.name}: ${[...graders].join(", ")}${models?.judge ? ` by ${models.judge.name}` : ""}`;
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
        generation: { task: gen.task, grader, scorer: chosen ? scorer.name : claimScoreName(gen.claimScore), samples: gen.samples, sampling, scorers: metrics },
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
