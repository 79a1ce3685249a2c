// Dataset items with their evidence → what the service takes: example records for the profile (the
// evidence in `metadata.evidence`, DESIGN.md) and client_evidence evaluate requests for the test split.
import type { AccessLevel, Evidence, EvaluateRequestInput, ExampleRecord } from "../../api/index.js";
import type { MultipleChoiceItem } from "../../datasets/index.js";
import { clozePrefix } from "./clozeEvidence.js";

export interface Scored {
  item: MultipleChoiceItem;
  evidence: Evidence;
}

export interface RecordContext {
  /** Where the items came from (`source` of each record). */
  source: string;
  accessLevel: AccessLevel;
  fingerprint: string;
}

export function exampleRecord({ item, evidence }: Scored, ctx: RecordContext): ExampleRecord {
  return {
    context: clozePrefix(item),
    label: item.answer,
    source: `${ctx.source}#${item.id}`,
    ...(item.group !== undefined ? { group: item.group } : {}),
    metadata: { id: item.id, evidence, access_level: ctx.accessLevel, backend_fingerprint: ctx.fingerprint },
  };
}

/** The one query a test item asks; its name is fixed so the cross-check can name it. */
export const QUERY_NAME = "answer";

export function evaluateRequest({ item, evidence }: Scored, profile: string, backendName: string, accessLevel: AccessLevel): EvaluateRequestInput {
  return {
    context: clozePrefix(item),
    backend: { provider: "client_evidence", name: backendName, access_level: accessLevel },
    queries: {
      [QUERY_NAME]: {
        type: "set",
        instructions: item.question?.trim() || "Which option continues the text?",
        options: item.options,
        calibration_profile: profile,
        evidence,
      },
    },
  } as EvaluateRequestInput;
}

/** Probabilities in the item's option order, and the gold index, for the local analyses. */
export function scoredRow({ item, evidence }: Scored): { probabilities: number[]; label: number } {
  const names = Object.keys(item.options);
  const p = evidence.option_probabilities!;
  return { probabilities: names.map((n) => p[n]!), label: names.indexOf(item.answer) };
}
