// prompt_template_hash over everything that changes what the model sees or how it is scored: the format
// and its text, the chat template's source (template text, or wrapper and settings, date included), the
// system text, the few-shot exemplars, the normalisation. The same settings hash the same on every run.
import { createHash } from "node:crypto";
import { CLAIM_SCORING_TEMPLATE, TEMPLATES } from "../templates.js";
import { formatOf } from "./assemble.js";
import type { ResolvedPromptSettings } from "./types.js";

type HashedType = keyof typeof TEMPLATES;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** `sha256:<hex>` of the canonical JSON of the resolved settings (and, for `instruct`, the query type's template). */
export function promptSettingsHash(settings: ResolvedPromptSettings, queryType: HashedType = "set"): string {
  const f = settings.format;
  const format = typeof f === "object"
    ? { file: f.text }
    : { id: formatOf(settings).id, ...(f === "instruct" || queryType === "claim" ? { template: TEMPLATES[queryType].text } : {}) };
  const payload = {
    v: 1,
    format,
    ...(queryType === "claim" ? { claimScoring: CLAIM_SCORING_TEMPLATE.text } : {}),
    chat: settings.chat?.source ?? null,
    system: settings.system ?? null,
    // Ids name the exemplars; their content is hashed too, so an edited exemplar under the same id is a change.
    fewshot: settings.fewshot.map((e) => ({ id: e.id, content: sha256(JSON.stringify(e)) })),
    normalize: settings.normalize,
  };
  return `sha256:${sha256(JSON.stringify(payload))}`;
}
