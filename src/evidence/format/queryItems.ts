// A spec query (set, belief, gate, interval, judge) as a multiple-choice item, so queries go through the
// same formats as dataset items. Its instruct prompt is the query type's own template (prompts.ts).
import { judgeCandidates, type Query } from "../../api/index.js";
import { queryPrompt } from "../prompts.js";
import { contentText } from "../templates.js";
import type { PromptItem } from "./types.js";

type OptionQuery = Exclude<Query, { type: "route" | "claim" }>;

export function queryItem(name: string, query: OptionQuery, context: unknown): PromptItem {
  const instruct = queryPrompt(query, context);
  let texts: string[];
  switch (query.type) {
    case "set":
      texts = Object.entries(query.options).map(([n, d]) => (d ? String(d) : n));
      break;
    case "judge":
      texts = judgeCandidates(context) ?? [];
      break;
    default:
      texts = [...instruct.names];
  }
  let question = contentText(query.instructions).trim();
  if (query.type === "belief" && query.criteria !== undefined) question = `${question}\nCriteria: ${contentText(query.criteria)}`.trim();
  return {
    id: name, context: contentText(context), question, names: instruct.names, texts,
    // A query's instructions ask something; empty instructions leave a text to be continued directly.
    style: question === "" ? "completion" : "question",
    instruct: { prompt: instruct.prompt, continuations: instruct.continuations },
  };
}
