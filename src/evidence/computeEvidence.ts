// Evidence for every query of one request, at one access level (spec 2.3's table). All option scoring of
// a request goes to the adapter in one call, so the context is evaluated once for all queries.
import { levelRank, type AccessLevel, type Evidence, type Query, type Sample } from "../api/index.js";
import { logSumExp, type ModelAdapter, type ScoreItem } from "../adapters/index.js";
import { EvidenceError } from "./errors.js";
import { claimScoringPrompt, queryPrompt, splitClaims, type QueryPrompt } from "./prompts.js";

export interface EvidenceOptions {
  /** Samples per query at L0, and per claim query at every level. Default 10. */
  samples?: number;
  /** Seed of the sampler. Default 0. */
  seed?: number;
  /** Tokens per sample for option queries at L0. Default 8. */
  optionSampleTokens?: number;
  /** Tokens per claim response. Default 64. */
  claimSampleTokens?: number;
  signal?: AbortSignal;
}

/** Log-scores → probabilities that sum to 1 (renormalised over the options, in float64). */
export function normalise(names: string[], logScores: number[]): Record<string, number> {
  const lse = logSumExp(logScores);
  const probs = logScores.map((s) => Math.exp(s - lse));
  const total = probs.reduce((a, b) => a + b, 0);
  return Object.fromEntries(names.map((n, i) => [n, probs[i]! / total]));
}

/** The option a sampled answer names: the longest name it starts with, case-insensitively. */
function matchName(sample: string, names: string[]): string | undefined {
  const text = sample.trim().toLowerCase();
  let best: string | undefined;
  for (const n of names) if (text.startsWith(n.toLowerCase()) && (!best || n.length > best.length)) best = n;
  return best;
}

type Scored = Exclude<Query, { type: "route" }>;

export async function computeEvidence(
  context: unknown, queries: Record<string, Query>, adapter: ModelAdapter, level: AccessLevel, options: EvidenceOptions = {},
): Promise<Record<string, Evidence>> {
  const { samples = 10, seed = 0, optionSampleTokens = 8, claimSampleTokens = 64, signal } = options;
  const rank = levelRank(level);
  const entries = Object.entries(queries).filter((e): e is [string, Scored] => e[1].type !== "route");
  const prompts = new Map<string, QueryPrompt>();
  for (const [name, q] of entries) {
    const p = queryPrompt(q, context);
    if (q.type === "judge" && p.names.length < 2) {
      throw new EvidenceError(`queries.${name}: a judge query needs a context {candidates: {name: text}} with 2 or more candidates`, `queries.${name}`);
    }
    prompts.set(name, p);
  }
  const evidence: Record<string, Evidence> = {};
  const optionQueries = entries.filter(([, q]) => q.type !== "claim");

  if (rank >= 2) {
    const items: ScoreItem[] = optionQueries.map(([name]) => ({ prefix: prompts.get(name)!.prompt, continuations: prompts.get(name)!.continuations }));
    const scores = await adapter.scoreContinuations(items, { signal });
    optionQueries.forEach(([name, q], i) => (evidence[name] = probabilitiesEvidence(q, prompts.get(name)!, scores[i]!)));
  } else if (rank === 1) {
    for (const [name, q] of optionQueries) {
      const p = prompts.get(name)!;
      evidence[name] = probabilitiesEvidence(q, p, await adapter.firstTokenLogProbs(p.prompt, p.continuations, { signal }));
    }
  } else {
    for (const [name] of optionQueries) {
      const drawn = await adapter.sample(prompts.get(name)!.prompt, samples, { seed, maxTokens: optionSampleTokens, signal });
      // Samples are sent as the option they name where one matches, so the service can count frequencies.
      evidence[name] = { samples: drawn.map((s) => matchName(s, prompts.get(name)!.names) ?? s.trim()) };
    }
  }

  for (const [name, q] of entries) {
    if (q.type !== "claim") continue;
    const drawn = await adapter.sample(prompts.get(name)!.prompt, samples, { seed, maxTokens: claimSampleTokens, signal });
    if (rank >= 2) {
      evidence[name] = { samples: await scoreClaims(adapter, q.instructions, context, drawn, signal), claim_scoring: "client" };
    } else {
      evidence[name] = { samples: drawn };
    }
  }

  if (rank >= 4) {
    for (const [name] of entries) evidence[name]!.hidden_states = await adapter.hiddenState(prompts.get(name)!.prompt, { signal });
  }
  return evidence;
}

function probabilitiesEvidence(q: Scored, p: QueryPrompt, logScores: number[]): Evidence {
  const probs = normalise(p.names, logScores);
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
