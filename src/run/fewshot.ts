// Few-shot exemplars from a file: the first K items with answers, the same for every item (exchangeability
// holds), and never scored themselves: a run drops dataset items that are also exemplars.
import { loadDataset, type DatasetOptions } from "../datasets/index.js";
import type { PromptItem } from "../evidence/index.js";
import { choicesOf, promptItemOf, type ChoiceItem, type QueryType } from "./choices.js";
import { RunInputError } from "./errors.js";

/** The first K exemplars; `type`, when given, is the kind of item they must match. */
export async function loadFewshot(spec: { file: string; k: number } | undefined, type?: QueryType, datasetOptions: DatasetOptions = {}): Promise<PromptItem[]> {
  if (!spec) return [];
  const choices = choicesOf(await loadDataset(spec.file, datasetOptions));
  if (type !== undefined && choices.type !== type) throw new RunInputError(spec.file, `holds ${choices.type} items, but the dataset's items are ${type} items`);
  if (choices.items.length < spec.k) throw new RunInputError(spec.file, `holds ${choices.items.length} exemplars; --num-fewshot asks for ${spec.k}`);
  return choices.items.slice(0, spec.k).map((i) => promptItemOf(i, choices.type));
}

const identity = (i: { question?: string | undefined; context: string; texts: string[] }) => JSON.stringify([i.context.trim(), i.question?.trim() ?? "", i.texts]);

/** The items that are not exemplars, by id or by the same question, context and choices. */
export function withoutExemplars<T extends ChoiceItem>(items: readonly T[], exemplars: readonly PromptItem[]): { kept: T[]; dropped: number } {
  if (exemplars.length === 0) return { kept: [...items], dropped: 0 };
  const ids = new Set(exemplars.map((e) => e.id));
  const same = new Set(exemplars.map(identity));
  const kept = items.filter((i) => !ids.has(i.id) && !same.has(identity(i)));
  return { kept, dropped: items.length - kept.length };
}
