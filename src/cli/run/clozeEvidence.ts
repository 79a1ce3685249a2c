// Evidence for multiple-choice items, scored the cloze way (as lm-eval-harness scores MMLU for small
// models): the log-likelihood of each option's *text* as the continuation of the item, renormalised
// over the options and keyed by option name. A tiny model cannot answer "A/B/C/D" (measured: chance on
// stories260K), but it can tell which word continues a story. Items go to the adapter in batches, so
// the engine evaluates many sequences per call.
import type { Evidence } from "../../api/index.js";
import { levelRank } from "../../api/index.js";
import type { ModelAdapter } from "../../adapters/index.js";
import { hashTemplateText, normalise } from "../../evidence/index.js";
import type { ChoiceItem, QueryType } from "./choices.js";

/**
 * The prompt: context and question joined by a space; a question that ends in "?" is followed by
 * "\nAnswer:", a sentence to complete is continued directly. Each option is scored as " " + its text.
 */
export const CLOZE_TEMPLATE = { id: "cloze/v1", text: "{context} {question}[\\nAnswer: when the question ends in ?] {option text}" };
export const CLOZE_TEMPLATE_HASH = hashTemplateText(CLOZE_TEMPLATE.text);

export function clozePrefix(item: Pick<ChoiceItem, "context" | "question">): string {
  const question = item.question?.trim() ?? "";
  const text = [item.context.trim(), question].filter((s) => s !== "").join(" ");
  return question.endsWith("?") ? `${text}\nAnswer:` : text;
}

/** Items per adapter call: large enough to batch, small enough for a lively progress bar. */
export const CLOZE_BATCH = 16;

/** Evidence per item: option_probabilities for set queries, level_probabilities for interval queries. */
export async function clozeEvidence(
  items: readonly ChoiceItem[], type: QueryType, adapter: ModelAdapter, onBatch: (done: number) => void, signal?: AbortSignal,
): Promise<Evidence[]> {
  const out: Evidence[] = [];
  const scoring = levelRank(adapter.accessLevel) >= 2;
  for (let start = 0; start < items.length; start += CLOZE_BATCH) {
    signal?.throwIfAborted();
    const batch = items.slice(start, start + CLOZE_BATCH);
    const call = signal ? { signal } : {};
    const continuations = (i: ChoiceItem) => i.texts.map((t) => ` ${t}`);
    let rows: number[][];
    if (scoring) {
      rows = await adapter.scoreContinuations(batch.map((i) => ({ prefix: clozePrefix(i), continuations: continuations(i) })), call);
    } else {
      // L1: first-token probabilities only, one item at a time (the adapter has no batched form).
      rows = [];
      for (const i of batch) rows.push(await adapter.firstTokenLogProbs(clozePrefix(i), continuations(i), call));
    }
    batch.forEach((item, k) => {
      const probabilities = normalise(item.names, rows[k]!);
      out.push(type === "interval" ? { level_probabilities: probabilities } : { option_probabilities: probabilities });
    });
    onBatch(batch.length);
  }
  return out;
}
