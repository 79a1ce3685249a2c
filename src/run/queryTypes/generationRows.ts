// A free-form run's model outputs through the evidence cache, each kind in rows of its own keyed by what decides
// it: the generation (model, prompt, item, sampling; everything the level lets any scorer read, so another
// --scorer or --scorers never generates again), the judged statistics (which of them the scorers need: a run
// asking for the full entailment matrix judges only that), the judge grader's verdicts (the judge model, the
// question, answer and references) and claims' p(True). Only the generation rows count as the run's rows.
import type { ModelAdapter } from "../../adapters/index.js";
import {
  ANSWER_JUDGE_PROMPT, cachedRows, claimPTrue, ENTAILMENT_PROMPT, EvidenceError, generateOptionsFor, judgeAnswers, judgedStatistics, JUDGED_STATISTICS,
  neededStatistics, P_TRUE_CLAIM_PROMPT, P_TRUE_PROMPT, payloadHash, scorersAt, storeGeneration,
  type ClaimQuestion, type JudgedStatistics, type JudgeQuestion, type JudgeVerdict, type SamplingSettings, type StoredGeneration,
} from "../../evidence/index.js";
import { SCORERS, type Scorer } from "../../uncertainty/index.js";
import type { RowCache } from "./cachedCalls.js";

export interface GenerationInput {
  id: string;
  /** Exactly the text the model is given. */
  prompt: string;
  rendered: boolean;
  /** The task's question text, before any chat template (what the scored prompts name). */
  question: string;
  until: readonly string[];
}

/** A model that answers the run's scored prompts, and how they reach it. */
export interface ScoringModel {
  adapter: ModelAdapter;
  /** As `calibkit cache list` names it. */
  name: string;
  /** A chat template's user turn, as the task's prompts are rendered; absent for plain text. */
  render?: (text: string) => Promise<string>;
  /** What decides the rendering (the task's prompt hash, which covers its chat template); null for plain text. */
  renderKey: string | null;
}

/** Answers (or claims) per batch of the judge grader and of claims' p(True): one scoring call each. */
const SCORED_BATCH = 16;

const counted = (rows: RowCache, r: { hits: number; computed: number; redone: number }) => {
  rows.hits += r.hits;
  rows.computed += r.computed;
  rows.redone += r.redone;
};

/** Each item's greedy answer and samples, with every statistic the generation carries at the model's level. */
export async function cachedGenerations(
  rows: RowCache, adapter: ModelAdapter, promptHash: string, inputs: readonly GenerationInput[], sampling: SamplingSettings, onBatch: (done: number) => void,
): Promise<StoredGeneration[]> {
  if (!adapter.generate) throw new EvidenceError(`the ${adapter.provider} adapter (${adapter.model}) cannot generate free-form answers`, "model");
  const level = adapter.accessLevel;
  const needed = neededStatistics(scorersAt(level, SCORERS));
  const r = await cachedRows<GenerationInput, StoredGeneration>(inputs, {
    cache: rows.cache, model: rows.model, batch: 1, onBatch,
    key: (p) => ({
      fingerprint: adapter.fingerprint, promptHash: payloadHash({ recipe: "generation", v: 2, prompt: promptHash }),
      contentHash: payloadHash({ v: 1, prompt: p.prompt, rendered: p.rendered, until: p.until }), accessLevel: level, sampling: JSON.stringify(sampling),
    }),
    compute: async ([p]) => [storeGeneration(await adapter.generate(p!.prompt, { ...generateOptionsFor(level, needed, sampling, p!.until), rendered: p!.rendered }))],
  });
  counted(rows, r);
  return r.rows;
}

/** Each item's generation and judged statistics, item after item, so that progress counts whole items. */
export async function cachedItemRows(
  rows: RowCache, m: ScoringModel, promptHash: string, inputs: readonly GenerationInput[], sampling: SamplingSettings, scorers: readonly Scorer[],
  onItem: (done: number) => void,
): Promise<{ generations: StoredGeneration[]; judged: JudgedStatistics[] }> {
  const generations: StoredGeneration[] = [];
  const judged: JudgedStatistics[] = [];
  for (const input of inputs) {
    const [g] = await cachedGenerations(rows, m.adapter, promptHash, [input], sampling, () => undefined);
    generations.push(g!);
    judged.push((await cachedJudged(rows, m, [input], [g!], scorers))[0]!);
    onItem(1);
  }
  return { generations, judged };
}

/** The judged statistics `scorers` read, by the model itself (judgedStatistics.ts): each item's prompts one batch. */
export async function cachedJudged(
  rows: RowCache, m: ScoringModel, inputs: readonly GenerationInput[], generations: readonly StoredGeneration[], scorers: readonly Scorer[],
): Promise<JudgedStatistics[]> {
  const needed = neededStatistics(scorersAt(m.adapter.accessLevel, scorers));
  const judged = JUDGED_STATISTICS.filter((n) => needed.has(n));
  if (judged.length === 0) return inputs.map(() => ({ judgeCalls: 0 }));
  const recipe = payloadHash({ recipe: "judged-statistics", v: 1, render: m.renderKey, judge: [ENTAILMENT_PROMPT.id, ENTAILMENT_PROMPT.text, P_TRUE_PROMPT.text], statistics: judged });
  const pairs = inputs.map((input, i) => ({ input, generation: generations[i]! }));
  const r = await cachedRows<(typeof pairs)[number], JudgedStatistics>(pairs, {
    cache: rows.cache, model: m.name, batch: 1,
    key: ({ input, generation: g }) => ({
      fingerprint: m.adapter.fingerprint, promptHash: recipe, accessLevel: m.adapter.accessLevel, sampling: "{}",
      contentHash: payloadHash({ v: 1, question: input.question, greedy: g.greedy.text, samples: g.samples.map((s) => s.text) }),
    }),
    compute: async ([p]) => [await judgedStatistics(m.adapter, p!.input.question, p!.generation, new Set(judged), m.render ? { render: m.render } : {})],
  });
  return r.rows;
}

/** The judge grader's p(yes) per reference for each answer (answerJudge.ts). */
export async function cachedVerdicts(rows: RowCache, judge: ScoringModel, questions: readonly JudgeQuestion[]): Promise<JudgeVerdict[]> {
  const recipe = payloadHash({ recipe: "answer-judge", v: 1, prompt: ANSWER_JUDGE_PROMPT, render: judge.renderKey });
  const r = await cachedRows<JudgeQuestion, JudgeVerdict>(questions, {
    cache: rows.cache, model: judge.name, batch: SCORED_BATCH,
    key: (q) => ({
      fingerprint: judge.adapter.fingerprint, promptHash: recipe, accessLevel: judge.adapter.accessLevel, sampling: "{}",
      contentHash: payloadHash({ v: 1, question: q.question, answer: q.answer, references: q.references }),
    }),
    compute: (batch) => judgeAnswers(judge.adapter, batch, judge.render ? { render: judge.render } : {}),
  });
  return r.rows;
}

/** p(True) of each claim (answerJudge.ts), by the run's own model. */
export async function cachedClaimPTrue(rows: RowCache, m: ScoringModel, questions: readonly ClaimQuestion[]): Promise<number[][]> {
  const recipe = payloadHash({ recipe: "claim-p-true", v: 1, prompt: P_TRUE_CLAIM_PROMPT, render: m.renderKey });
  const r = await cachedRows<ClaimQuestion, number[]>(questions, {
    cache: rows.cache, model: m.name, batch: SCORED_BATCH,
    key: (q) => ({
      fingerprint: m.adapter.fingerprint, promptHash: recipe, accessLevel: m.adapter.accessLevel, sampling: "{}",
      contentHash: payloadHash({ v: 1, question: q.question, claims: q.claims }),
    }),
    compute: (batch) => claimPTrue(m.adapter, batch, m.render ? { render: m.render } : {}),
  });
  return r.rows;
}
