// Enumerations shared by several resources of the evaluation spec.
import { z } from "zod";

export const ACCESS_LEVELS = ["L0", "L1", "L2", "L3", "L4"] as const;
export const accessLevelSchema = z.enum(ACCESS_LEVELS);
export type AccessLevel = z.infer<typeof accessLevelSchema>;

/** `access_hint` values in level order: sampling is L0 … hidden-state is L4; `auto` takes the highest detected. */
export const ACCESS_HINTS = ["auto", "sampling", "logprobs", "prompt-scoring", "exact", "hidden-state"] as const;
export const accessHintSchema = z.enum(ACCESS_HINTS);
export type AccessHint = z.infer<typeof accessHintSchema>;

/** The level a hint asks for, or undefined for `auto`. */
export function levelOfHint(hint: AccessHint): AccessLevel | undefined {
  const index = ACCESS_HINTS.indexOf(hint);
  return index === 0 ? undefined : ACCESS_LEVELS[index - 1];
}

/** The hint that names a level (L2 → prompt-scoring). */
export function hintOfLevel(level: AccessLevel): AccessHint {
  return ACCESS_HINTS[ACCESS_LEVELS.indexOf(level) + 1]!;
}

/** Numeric rank of a level, for comparisons (L0 → 0). */
export function levelRank(level: AccessLevel): number {
  return ACCESS_LEVELS.indexOf(level);
}

export const PROVIDERS = [
  "openai", "azure-openai", "anthropic", "gemini", "bedrock", "openrouter", "vllm", "sglang", "client_evidence",
] as const;
export const providerSchema = z.enum(PROVIDERS);
export type Provider = z.infer<typeof providerSchema>;

/** Free-form content: a context, instructions or criteria may be a string, an object or an array. */
export const contentSchema = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);
export type Content = z.infer<typeof contentSchema>;

/** A miscoverage level or risk target strictly between 0 and 1. */
export const unitIntervalSchema = z.number().gt(0).lt(1);

/** Profile names appear in URL paths, so they are restricted to a path-safe alphabet. */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const profileNameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(PROFILE_NAME_PATTERN, {
    message: "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'",
  });

export const SET_METHODS = ["LAC", "APS", "RAPS"] as const;
export const INTERVAL_METHODS = ["CQR", "ordinal-aps"] as const;
export const PROFILE_METHODS = [...SET_METHODS, ...INTERVAL_METHODS] as const;

/** Method names are matched case-insensitively and normalised to the spec's spelling. */
export function methodSchema<const M extends readonly [string, ...string[]]>(methods: M) {
  return z
    .string()
    .transform((s, ctx) => {
      const hit = methods.find((m) => m.toLowerCase() === s.toLowerCase());
      if (hit === undefined) {
        ctx.addIssue({ code: "invalid_value", values: [...methods], input: s });
        return z.NEVER;
      }
      return hit as M[number];
    });
}

export const isoDateSchema = z.string().min(1);
