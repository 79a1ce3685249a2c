// Reading a server's log-probabilities: either shape as the legacy one, the L1 first-token approximation from
// a top-k list, and an L2 continuation's score from an echo.
import type { CompletionLogprobs, CompletionResponse } from "../api/index.js";
import { AdapterError } from "./errors.js";
import { logSumExp } from "./logMath.js";

/**
 * L1 first-token approximation from a top-k list: a continuation takes the log-probability of the longest
 * top-k token its text starts with; continuations matching none share the mass left outside the top k.
 */
export function firstTokenFromTopK(top: Record<string, number>, continuations: string[]): number[] {
  const entries = Object.entries(top).filter(([t]) => t.length > 0);
  const matched = continuations.map((c) => {
    let best: [string, number] | undefined;
    for (const e of entries) if (c.startsWith(e[0]) && (!best || e[0].length > best[0].length)) best = e;
    return best?.[1];
  });
  const unmatched = matched.filter((m) => m === undefined).length;
  const inTop = Math.min(1, Math.exp(logSumExp(entries.map(([, lp]) => lp))));
  const rest = Math.max(1 - inTop, 1e-12);
  return matched.map((m) => m ?? Math.log(rest / Math.max(1, unmatched)));
}

/** Either log-probability shape as the legacy one; undefined when the server sent none. */
export function legacyLogprobs(lp: CompletionResponse["choices"][number]["logprobs"]): CompletionLogprobs | undefined {
  if (!lp) return undefined;
  if (!("content" in lp) || "tokens" in lp) return lp as CompletionLogprobs;
  const content = lp.content ?? [];
  return {
    tokens: content.map((c) => c.token),
    token_logprobs: content.map((c) => c.logprob),
    top_logprobs: content.map((c) => Object.fromEntries((c.top_logprobs ?? []).map((t) => [t.token, t.logprob]))),
  };
}

/** Sum of the echoed token log-probabilities whose text starts at or after the prefix's end. */
export function continuationLogProb(res: CompletionResponse, prefixLength: number): number {
  const lp = legacyLogprobs(res.choices[0]!.logprobs);
  if (!lp) throw new AdapterError("the server echoed no log-probabilities");
  let offset = 0;
  let sum = 0;
  lp.tokens.forEach((tok, i) => {
    const at = lp.text_offset?.[i] ?? offset;
    offset = at + tok.length;
    // A token straddling the boundary belongs to the continuation: its probability covers continuation text.
    if (at + tok.length > prefixLength) sum += lp.token_logprobs[i] ?? 0;
  });
  return sum;
}

