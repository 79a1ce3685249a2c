// Client evidence (spec 2.3): what a caller computed from its own model, per query.
import { z } from "zod";

/** Map of option (or level) name to probability. */
export const probabilityMapSchema = z.record(z.string(), z.number().min(0).max(1));
export type ProbabilityMap = z.infer<typeof probabilityMapSchema>;

/** A claim with the client's own score (L2 and above). */
export const scoredClaimSchema = z.looseObject({ text: z.string(), score: z.number() });

/** A sampled response: plain text, or at L2+ for claim queries, text with its scored claims. */
export const sampleSchema = z.union([
  z.string(),
  z.looseObject({ text: z.string(), claims: z.array(scoredClaimSchema).optional() }),
]);
export type Sample = z.infer<typeof sampleSchema>;

/** A client stage's output for a route query: the answer its model gave and the confidence in it. */
export const stageOutputSchema = z.strictObject({ output: z.string(), confidence: z.number().min(0).max(1) });
export type StageOutput = z.infer<typeof stageOutputSchema>;

export const evidenceSchema = z.looseObject({
  option_probabilities: probabilityMapSchema.optional(),
  level_probabilities: probabilityMapSchema.optional(),
  samples: z.array(sampleSchema).min(1).optional(),
  hidden_states: z.union([z.array(z.number()), z.array(z.array(z.number()))]).optional(),
  claim_scoring: z.literal("client").optional(),
  /** Route queries: each `client_evidence` cascade stage's output, by the stage's backend name (docs/api.md). */
  stage_outputs: z.record(z.string().min(1), stageOutputSchema).optional(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

/** A probability map the schema accepts as it is: an object of numbers in [0, 1], no `__proto__` key. */
function plainProbabilities(map: unknown): boolean {
  if (map === undefined) return true;
  if (map === null || typeof map !== "object" || Array.isArray(map)) return false;
  for (const key of Object.keys(map)) {
    const p = (map as Record<string, unknown>)[key];
    if (key === "__proto__" || typeof p !== "number" || !(p >= 0 && p <= 1)) return false;
  }
  return true;
}

/**
 * `evidenceSchema.safeParse`, answered without the schema for the common evidence of probability maps alone
 * (which the schema returns unchanged): the schema costs about 10 µs an example, paid by every example of an
 * examples batch and of a pool scan.
 */
export function safeParseEvidence(raw: unknown): ReturnType<typeof evidenceSchema.safeParse> {
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    if (o.samples === undefined && o.hidden_states === undefined && o.claim_scoring === undefined && o.stage_outputs === undefined
      && plainProbabilities(o.option_probabilities) && plainProbabilities(o.level_probabilities)) {
      return { success: true, data: o as Evidence };
    }
  }
  return evidenceSchema.safeParse(raw);
}

/** Probabilities from a client must sum to 1 within this tolerance (rounding in transit is allowed for). */
export const PROBABILITY_SUM_TOLERANCE = 1e-3;
