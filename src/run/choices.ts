// What a run asks of each item, whatever its dataset kind: pick one of a fixed list of names. A
// multiple-choice item becomes a set query over its option names; an ordinal item an interval query
// over its levels. Both are scored the same way (the text of each name as a continuation).
import type { Dataset } from "../datasets/index.js";
import { queryPrompt, type PromptItem } from "../evidence/index.js";
import { RunInputError } from "./errors.js";

export type QueryType = "set" | "interval";

export interface ChoiceItem {
  id: string;
  context: string;
  question?: string;
  /** Option names or levels, in the item's order (levels from low to high). */
  names: string[];
  /** The text scored for each name. */
  texts: string[];
  answer: string;
  group?: string;
  /** MMLU subject, for the formats' description line. */
  subject?: string;
}

export interface Choices {
  type: QueryType;
  items: ChoiceItem[];
}

/** The methods a profile of each query type takes, the first being the default. */
export const METHODS_BY_TYPE: Record<QueryType, readonly string[]> = {
  set: ["LAC", "APS", "RAPS"],
  interval: ["ordinal-aps", "CQR"],
};

export function choicesOf(dataset: Dataset): Choices {
  const base = (i: { id: string; context: string; question?: string; group?: string; subject?: string }) => ({
    id: i.id, context: i.context,
    ...(i.question !== undefined ? { question: i.question } : {}),
    ...(i.group !== undefined ? { group: i.group } : {}),
    ...(i.subject !== undefined ? { subject: i.subject } : {}),
  });
  switch (dataset.kind) {
    case "multiple_choice":
      return {
        type: "set",
        items: dataset.items.map((i) => ({ ...base(i), names: Object.keys(i.options), texts: Object.values(i.options), answer: i.answer })),
      };
    case "ordinal":
      return { type: "interval", items: dataset.items.map((i) => ({ ...base(i), names: i.levels, texts: i.levels, answer: i.answer })) };
    default:
      throw new RunInputError(
        dataset.source,
        `holds ${dataset.kind} items; calibkit run calibrates set queries (multiple-choice items) and interval queries (ordinal items)`,
      );
  }
}

/** The profile method for `type`: the requested one when it fits (any case), else the type's default. */
export function methodFor(type: QueryType, requested: string | undefined, file: string): string {
  const methods = METHODS_BY_TYPE[type];
  if (requested === undefined) return methods[0]!;
  const hit = methods.find((m) => m.toLowerCase() === requested.toLowerCase());
  if (!hit) throw new RunInputError(file, `${type} queries take --method ${methods.join(" or ")}, not "${requested}"`);
  return hit;
}

/** An item as the prompt formats take it; its instruct prompt is the one of the equivalent set or interval query. */
export function promptItemOf(item: ChoiceItem, type: QueryType): PromptItem {
  const instructions = item.question?.trim() || (type === "set" ? "Which option continues the text?" : "Which level fits?");
  const query = type === "set"
    ? { type: "set" as const, instructions, options: Object.fromEntries(item.names.map((n, j) => [n, item.texts[j]!])) }
    : { type: "interval" as const, instructions, levels: item.names };
  const instruct = queryPrompt(query as Parameters<typeof queryPrompt>[0], item.context);
  return {
    id: item.id, context: item.context, names: item.names, texts: item.texts, answer: item.answer,
    ...(item.question !== undefined ? { question: item.question } : {}),
    ...(item.subject !== undefined ? { subject: item.subject } : {}),
    instruct: { prompt: instruct.prompt, continuations: instruct.continuations },
  };
}
