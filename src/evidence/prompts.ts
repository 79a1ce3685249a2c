// What one query asks the model: its prompt, and the answer strings whose probabilities become evidence.
import { judgeCandidates, type Query } from "../api/index.js";
import { CLAIM_SCORING_TEMPLATE, contentText, renderTemplate, TEMPLATES } from "./templates.js";

export interface QueryPrompt {
  prompt: string;
  /** Evidence key names (option names, levels); empty for claim queries. */
  names: string[];
  /** The continuation scored for each name: one space then the name, trimmed, as it would follow "Answer:". */
  continuations: string[];
}

export function queryPrompt(query: Exclude<Query, { type: "route" }>, context: unknown): QueryPrompt {
  const ctx = contentText(context);
  const instructions = contentText(query.instructions);
  const withNames = (names: string[], prompt: string): QueryPrompt => ({ prompt, names, continuations: names.map((n) => ` ${n.trim()}`) });
  switch (query.type) {
    case "set": {
      const options = Object.entries(query.options).map(([name, desc]) => (desc ? `- ${name}: ${desc}` : `- ${name}`)).join("\n");
      return withNames(Object.keys(query.options), renderTemplate(TEMPLATES.set.text, { context: ctx, instructions, options }));
    }
    case "belief": {
      const criteria = query.criteria === undefined ? "" : `\nCriteria: ${contentText(query.criteria)}`;
      return withNames(["yes", "no"], renderTemplate(TEMPLATES.belief.text, { context: ctx, instructions, criteria }));
    }
    case "gate":
      return withNames(["pass", "fail"], renderTemplate(TEMPLATES.gate.text, { context: ctx, instructions }));
    case "interval": {
      const levels = query.levels.map(String);
      return withNames(levels, renderTemplate(TEMPLATES.interval.text, { context: ctx, instructions, levels: levels.join(", ") }));
    }
    case "judge": {
      const names = judgeCandidates(context) ?? [];
      return withNames(names, renderTemplate(TEMPLATES.judge.text, { context: ctx, instructions, candidates: names.join(", ") }));
    }
    case "claim":
      return { prompt: renderTemplate(TEMPLATES.claim.text, { context: ctx, instructions }), names: [], continuations: [] };
  }
}

export function claimScoringPrompt(instructions: string, context: unknown): string {
  return renderTemplate(CLAIM_SCORING_TEMPLATE.text, { context: contentText(context), instructions });
}

/** Atomic claims of a response: its sentences. */
export function splitClaims(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter((s) => s.length > 0);
}
