// The typed runs' model outputs through the evidence cache (#13), keyed like the set runs' rows: the model's
// fingerprint, a hash of the recipe that turns the item into model calls (the prompt template of that query
// type), the hash of the item's own content, the access level and the sampling settings. A statement's PMI
// with its story serves belief, gate, claim and judge alike; a stage's judgement or generation is keyed by
// that stage's own fingerprint. A repeat run with another α, split or seed makes no model call.
import type { ModelAdapter } from "../../adapters/index.js";
import { cachedRows, payloadHash } from "../../evidence/index.js";
import { levelRank } from "../../api/index.js";
import { stageGeneration, stageJudgement } from "../../service/index.js";
import { NEUTRAL_STORY, PMI_BATCH, statementPmi } from "./statementEvidence.js";
import type { RowCache, Stage } from "./types.js";

export type { RowCache } from "./types.js";

const PMI_RECIPE = payloadHash({ recipe: "statement-pmi", v: 1, neutral: NEUTRAL_STORY, continuation: " {statement}" });
/** L0 stages sample; their settings are part of the key (stageCalls.ts: 8 samples, seeds 0 and 1). */
const samplingOf = (adapter: ModelAdapter, settings: Record<string, unknown>) => (levelRank(adapter.accessLevel) >= 1 ? "{}" : JSON.stringify(settings));

/** PMI of each statement with its story (statementEvidence.ts), read from the cache where it is there. */
export async function cachedStatementPmi(
  rows: RowCache, adapter: ModelAdapter, accessLevel: string, pairs: readonly { story: string; statement: string }[], onBatch: (done: number) => void,
): Promise<number[]> {
  const r = await cachedRows<{ story: string; statement: string }, number>(pairs, {
    cache: rows.cache, model: rows.model, batch: PMI_BATCH, onBatch,
    key: (p) => ({ fingerprint: adapter.fingerprint, promptHash: PMI_RECIPE, contentHash: payloadHash({ v: 1, story: p.story, statement: p.statement }), accessLevel, sampling: "{}" }),
    compute: (batch) => statementPmi(adapter, batch, () => undefined),
  });
  rows.hits += r.hits;
  rows.computed += r.computed;
  rows.redone += r.redone;
  return r.rows;
}

async function one<R>(rows: RowCache, stage: Stage, recipe: string, content: unknown, sampling: string, compute: () => Promise<R>): Promise<R> {
  const r = await cachedRows<unknown, R>([content], {
    cache: rows.cache, model: `${stage.name}=${stage.url}`, batch: 1,
    key: () => ({ fingerprint: stage.adapter.fingerprint, promptHash: payloadHash({ recipe, v: 1 }), contentHash: payloadHash(content), accessLevel: stage.adapter.accessLevel, sampling }),
    compute: async () => [await compute()],
  });
  rows.hits += r.hits;
  rows.computed += r.computed;
  rows.redone += r.redone;
  return r.rows[0]!;
}

/** A judge stage's probabilities over the sorted candidates for one prompt (stageJudgement). */
export async function cachedStageJudgement(rows: RowCache, stage: Stage, prompt: string, candidates: readonly string[]): Promise<number[]> {
  return one(rows, stage, "stage-judgement", { prompt, candidates }, samplingOf(stage.adapter, { samples: 8, seed: 0, maxTokens: 8 }),
    async () => [...(await stageJudgement(stage.adapter, prompt, candidates)).probabilities]);
}

/** A route stage's greedy output and its confidence for one prompt (stageGeneration). */
export async function cachedStageGeneration(rows: RowCache, stage: Stage, prompt: string): Promise<{ output: string; confidence: number }> {
  return one(rows, stage, "stage-generation", { prompt, maxTokens: stage.maxTokens }, JSON.stringify({ temperature: 0, seed: 0, maxTokens: stage.maxTokens, ...(levelRank(stage.adapter.accessLevel) >= 1 ? {} : { samples: 8, sampleSeed: 1 }) }),
    async () => {
      const g = await stageGeneration(stage.adapter, prompt, stage.maxTokens);
      return { output: g.output, confidence: g.confidence };
    });
}
