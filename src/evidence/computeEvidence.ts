// Evidence for every query of one request, at one access level (spec 2.3's table). All option scoring of
// a request goes to the adapter in one call, so the context is evaluated once for all queries.
import { levelRank, type AccessLevel, type Evidence, type Query, type Sample } from "../api/index.js";
import { logSumExp, type ModelAdapter } from "../adapters/index.js";
import { EvidenceError } from "./errors.js";
import { claimScoringPrompt, queryPrompt, splitClaims } from "./prompts.js";
import {
  preparePrompts, queryItem, resolvePromptSettings, scorePrepared, type PreparedPrompt, type PromptSettings, type ResolvedPromptSettings,
} from "./format/index.js";

export interface EvidenceOptions {
  /** Samples per query at L0, and per claim query at every level. Default 10. */
  samples?: number;
  /** Seed of the sampler. Default 0. */
  seed?: number;
  /** Tokens per sample for option queries at L0. Default 8. */
  optionSampleTokens?: number;
  /** Tokens per claim response. Default 64. */
  claimSampleTokens?: number;
  /**
   * How option queries are prompted (docs/prompts.md): resolved settings, or settings to resolve against the
   * adapter on each call. Default: format auto, no few-shot, the model's own chat template, no normalisation.
   */
  prompt?: ResolvedPromptSettings | Partial<PromptSettings>;
  signal?: AbortSignal;
}

/** Resolved settings carry `chat` (null or the template in use); partial ones never do. */
const isResolved = (p: EvidenceOptions["prompt"]): p is ResolvedPromptSettings => p !== undefined && "chat" in p;

/** Log-scores → probabilities that sum to 1 (renormalised over the options, in float64). */
export function normalise(names: string[], logScores: number[]): Record<string, number> {
  const lse = logSumExp(logScores);
  const probs = logScores.map((s) => Math.exp(s - lse));
  const total = probs.reduce((a, b) => a + b, 0);
  return Object.fromEntries(names.map((n, i) => [n, probs[i]! / total]));
}

/** The option a sampled answer names: the longest target (letter or text) it starts with, case-insensitively. */
function matchName(sample: string, p: PreparedPrompt): string | undefined {
  const text = sample.trim().toLowerCase();
  let best = -1;
  p.continuations.forEach((c, i) => {
    const t = c.trim().toLowerCase();
    if (t !== "" && text.startsWith(t) && (best < 0 || t.length > p.continuations[best]!.trim().length)) best = i;
  });
  return best < 0 ? undefined : p.names[best];
}

type Scored = Exclude<Query, { type: "route" }>;

export async function computeEvidence(
  context: unknown, queries: Record<string, Query>, adapter: ModelAdapter, level: AccessLevel, options: EvidenceOptions = {},
): Promise<Record<string, Evidence>> {
  const { samples = 10, seed = 0, optionSampleTokens = 8, claimSampleTokens = 64, signal } = options;
  const rank = levelRank(level);
  const entries = Object.entries(queries).filter((e): e is [string, Scored] => e[1].type !== "route");
  for (const [name, q] of entries) {
    if (q.type === "judge" && queryPrompt(q, context).names.length < 2) {
      throw new EvidenceError(`queries.${name}: a judge query needs a context {candidates: {name: text}} with 2 or more candidates`, `queries.${name}`);
    }
  }
  const settings = isResolved(options.prompt) ? options.prompt : await resolvePromptSettings(options.prompt ?? {}, adapter);
  const optionQueries = entries.filter((e): e is [string, Exclude<Scored, { type: "claim" }>] => e[1].type !== "claim");
  const prepared = await preparePrompts(optionQueries.map(([name, q]) => queryItem(name, q, context)), settings, adapter);
  const promptOf = new Map<string, { prompt: string; rendered: boolean }>(optionQueries.map(([name], i) => [name, { prompt: prepared[i]!.prefix, rendered: prepared[i]!.rendered }]));
  const evidence: Record<string, Evidence> = {};

  if (rank >= 1) {
    // One call for all option queries at L2+, so the engine evaluates the shared context once.
    const scores = await scorePrepared(prepared, adapter, level, settings, signal);
    optionQueries.forEach(([name, q], i) => (evidence[name] = probabilitiesEvidence(q, prepared[i]!.names, scores[i]!)));
  } else {
    for (const [i, [name]] of optionQueries.entries()) {
      const p = prepared[i]!;
      const drawn = await adapter.sample(p.prefix, samples, { seed, maxTokens: optionSampleTokens, signal, rendered: p.rendered });
      // Samples are sent as the option they name where one matches, so the service can count frequencies.
      evidence[name] = { samples: drawn.map((s) => matchName(s, p) ?? s.trim()) };
    }
  }

  for (const [name, q] of entries) {
    if (q.type !== "claim") continue;
    const prompt = queryPrompt(q, context).prompt;
    promptOf.set(name, { prompt, rendered: false });
    const drawn = await adapter.sample(prompt, samples, { seed, maxTokens: claimSampleTokens, signal });
    if (rank >= 2) {
      evidence[name] = { samples: await scoreClaims(adapter, q.instructions, context, drawn, signal), claim_scoring: "client" };
    } else {
      evidence[name] = { samples: drawn };
    }
  }

  if (rank >= 4) {
    for (const [name] of entries) evidence[name]!.hidden_states = await adapter.hiddenState(promptOf.get(name)!.prompt, { signal });
  }
  return evidence;
}

function probabilitiesEvidence(q: Scored, names: string[], logScores: number[]): Evidence {
  const probs = normalise(names, logScores);
  return q.type === "interval" ? { level_probabilities: probs } : { option_probabilities: probs };
}

/**
 * The model's own score of each claim: the per-word geometric-mean probability of the claim's text after
 * the claim-scoring prompt, exp(log P(claim) / words), in (0, 1].
 */
async function scoreClaims(
  adapter: ModelAdapter, instructions: string, context: unknown, responses: string[], signal?: AbortSignal,
): Promise<Sample[]> {
  const prefix = claimScoringPrompt(instructions, context);
  const claims = responses.map(splitClaims);
  const unique = [...new Set(claims.flat())];
  const scores = new Map<string, number>();
  if (unique.length > 0) {
    const [row] = await adapter.scoreContinuations([{ prefix, continuations: unique.map((c) => ` ${c}`) }], { signal });
    unique.forEach((c, i) => scores.set(c, Math.exp(row![i]! / Math.max(1, c.split(/\s+/).length))));
  }
  return responses.map((text, i) => ({ text, claims: claims[i]!.map((c) => ({ text: c, score: scores.get(c)! })) }));
}
