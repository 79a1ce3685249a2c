// Versioned prompt templates, one per query type. A profile is calibrated on the prompts one template
// produced, so its text is hashed (`prompt_template_hash`) and any edit must bump the version.
// The context comes first in every template so that all queries of one request share its tokens.
import { createHash } from "node:crypto";
import type { QueryType } from "../api/index.js";
import { scorerKey, type Scorer } from "../uncertainty/index.js";

export interface PromptTemplate {
  /** `<type>/v<n>`; bump n whenever the text changes. */
  id: string;
  text: string;
}

const ANSWER_TAIL = "\nAnswer:";

export const TEMPLATES: Record<Exclude<QueryType, "route">, PromptTemplate> = {
  set: { id: "set/v1", text: "{context}\n\nTask: {instructions}\nOptions:\n{options}\nReply with one option name." + ANSWER_TAIL },
  belief: { id: "belief/v1", text: "{context}\n\nQuestion: {instructions}{criteria}\nReply yes or no." + ANSWER_TAIL },
  gate: { id: "gate/v1", text: "{context}\n\nCheck: {instructions}\nReply pass or fail." + ANSWER_TAIL },
  interval: { id: "interval/v1", text: "{context}\n\nTask: {instructions}\nLevels: {levels}\nReply with one level." + ANSWER_TAIL },
  judge: { id: "judge/v1", text: "{context}\n\nTask: {instructions}\nCandidates: {candidates}\nReply with the name of the better candidate." + ANSWER_TAIL },
  claim: { id: "claim/v1", text: "{context}\n\nTask: {instructions}\nResponse:" },
};

/** How the model's own claim scores are prompted (claim queries at L2+); hashed with the claim template. */
export const CLAIM_SCORING_TEMPLATE: PromptTemplate = { id: "claim-score/v1", text: "{context}\n\nTask: {instructions}\nA true statement:" };

/** `sha256:<hex>` of a template's text. */
export function hashTemplateText(text: string): string {
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

/** The prompt_template_hash of a query type; claim queries hash both their templates. */
export function promptTemplateHash(type: Exclude<QueryType, "route">): string {
  const text = type === "claim" ? `${TEMPLATES.claim.text}\n\u0000\n${CLAIM_SCORING_TEMPLATE.text}` : TEMPLATES[type].text;
  return hashTemplateText(text);
}

/**
 * The prompt_template_hash of a belief or gate query whose evidence is an uncertainty score's confidence
 * (docs/uncertainty.md): the template and the scorer's name and settings, so that a strict profile calibrated on
 * one scorer refuses another.
 */
export function scoredPromptTemplateHash(type: "belief" | "gate", scorer: Scorer): string {
  return hashTemplateText(`${TEMPLATES[type].text}\n\u0000\nscorer:${scorerKey(scorer)}`);
}

/** Fills `{name}` placeholders; a missing value is an empty string. */
export function renderTemplate(text: string, values: Record<string, string>): string {
  return text.replace(/\{([a-z_]+)\}/g, (_, key: string) => values[key] ?? "");
}

/** Content (string, object or array) as prompt text: strings verbatim, the rest as stable JSON. */
export function contentText(content: unknown): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  return JSON.stringify(content, null, 1);
}
