// Evidence for a run's multiple-choice and ordinal items through the one prompt path: prepared in batches
// so the engine scores many sequences per call, renormalised over each item's names.
import type { AccessLevel, Evidence } from "../api/index.js";
import type { ModelAdapter } from "../adapters/index.js";
import { normalise } from "./computeEvidence.js";
import { preparePrompts, scorePrepared, type PromptItem, type ResolvedPromptSettings } from "./format/index.js";

/** Items per adapter call: large enough to batch, small enough for a lively progress bar. */
export const CHOICE_BATCH = 16;

export interface ChoiceEvidenceOptions {
  /** "interval" items give level_probabilities, "set" items option_probabilities. */
  type: "set" | "interval";
  adapter: ModelAdapter;
  level: AccessLevel;
  prompt: ResolvedPromptSettings;
  onBatch?: (done: number) => void;
  signal?: AbortSignal;
}

export async function choiceEvidence(items: readonly PromptItem[], options: ChoiceEvidenceOptions): Promise<Evidence[]> {
  const out: Evidence[] = [];
  for (let start = 0; start < items.length; start += CHOICE_BATCH) {
    options.signal?.throwIfAborted();
    const prepared = await preparePrompts(items.slice(start, start + CHOICE_BATCH), options.prompt, options.adapter);
    const rows = await scorePrepared(prepared, options.adapter, options.level, options.prompt, options.signal);
    prepared.forEach((p, k) => {
      const probabilities = normalise(p.names, rows[k]!);
      out.push(options.type === "interval" ? { level_probabilities: probabilities } : { option_probabilities: probabilities });
    });
    options.onBatch?.(prepared.length);
  }
  return out;
}
