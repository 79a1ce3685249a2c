// Items with their evidence → what the service takes: example records for the profile (the evidence in
// `metadata.evidence`, DESIGN.md) and client_evidence evaluate requests for the test split.
import type { AccessLevel, Evidence, EvaluateRequestInput, ExampleRecord } from "../api/index.js";
import type { ChoiceItem, QueryType } from "./choices.js";
import { FORMATS } from "../evidence/index.js";
import { promptItemOf } from "./choices.js";

/** The item's own text (the cloze form, without exemplars or chat turns): what a record's context shows. */
function itemText(item: ChoiceItem): string {
  return FORMATS.cloze.text(promptItemOf(item, "set"));
}

export interface Scored {
  item: ChoiceItem;
  evidence: Evidence;
}

export interface RecordContext {
  /** Where the items came from (`source` of each record). */
  source: string;
  accessLevel: AccessLevel;
  fingerprint: string;
  /** The prompt settings' hash, so a strict profile can refuse examples prompted differently. */
  promptHash?: string;
}

export function exampleRecord({ item, evidence }: Scored, ctx: RecordContext): ExampleRecord {
  return {
    context: itemText(item),
    label: item.answer,
    source: `${ctx.source}#${item.id}`,
    ...(item.group !== undefined ? { group: item.group } : {}),
    metadata: {
      id: item.id, evidence, access_level: ctx.accessLevel, backend_fingerprint: ctx.fingerprint,
      ...(ctx.promptHash ? { prompt_template_hash: ctx.promptHash } : {}),
    },
  };
}

/** The one query a test item asks is named `answer:<item id>`, so the cross-check can name it. */
export const QUERY_NAME = "answer";

/**
 * The query name of a test item. The service draws a randomized method's u (APS, RAPS) from the profile
 * version and the query name: one name for every item would give the whole test split one u, and its
 * realized coverage the spread of a single draw instead of the split-conformal band.
 */
export const queryNameOf = (item: { id: string }): string => `${QUERY_NAME}:${item.id}`;

export interface RequestTarget {
  type: QueryType;
  profile: string;
  backendName: string;
  accessLevel: AccessLevel;
}

export function evaluateRequest({ item, evidence }: Scored, target: RequestTarget): EvaluateRequestInput {
  const common = {
    instructions: item.question?.trim() || (target.type === "set" ? "Which option continues the text?" : "Which level fits?"),
    calibration_profile: target.profile,
    evidence,
  };
  const query = target.type === "set"
    ? { type: "set", options: Object.fromEntries(item.names.map((n, j) => [n, item.texts[j]!])), ...common }
    : { type: "interval", levels: item.names, ...common };
  return {
    context: itemText(item),
    backend: { provider: "client_evidence", name: target.backendName, access_level: target.accessLevel },
    queries: { [queryNameOf(item)]: query },
  } as EvaluateRequestInput;
}

/** Probabilities in the item's name order, and the gold index, for the local analyses. */
export function scoredRow({ item, evidence }: Scored): { probabilities: number[]; label: number } {
  const p = (evidence.option_probabilities ?? evidence.level_probabilities)!;
  return { probabilities: item.names.map((n) => p[n]!), label: item.names.indexOf(item.answer) };
}
