// Turns a send or batch_send body into one normalized request, or a failure naming every offending
// field with the most specific code (docs/mail.md "Failure codes"): unknown fields, batch size, then
// addresses, then anything else.
import {
  batchSendRequestSchema, fieldIssues, MAX_BATCH_RECIPIENTS, sendRequestSchema,
  type FieldIssue,
} from "../api/index.js";
import { MailServiceError, type MailCodeName } from "./errors.js";

export type SendKind = "send" | "batch";
export type AttribValue = string | number | boolean | null;

export interface NormalizedRequest {
  kind: SendKind;
  recipients: string[];
  addresser: string | undefined;
  attribs: Record<string, AttribValue>;
  template: string | undefined;
}

/** At most this many issues are listed in a failure, so a 10,000-address batch cannot bloat the answer. */
const MAX_LISTED_ISSUES = 20;

const ADDRESS_FIELD = /^(recipient|addresser|recipients\.\d+)$/;

function classify(kind: SendKind, issues: { code: string; path: PropertyKey[]; origin?: string }[]): MailCodeName {
  const has = (pred: (i: (typeof issues)[number]) => boolean) => issues.some(pred);
  if (has((i) => i.code === "unrecognized_keys")) return "unknownField";
  if (kind === "batch") {
    const top = (i: (typeof issues)[number]) => i.path.length === 1 && i.path[0] === "recipients";
    if (has((i) => top(i) && i.code === "too_big")) return "batchTooLarge";
    if (has((i) => top(i) && i.code === "too_small")) return "batchEmpty";
  }
  // A missing or non-string address is a malformed request; a string that is no address is invalidAddress.
  if (issues.every((i) => i.code !== "invalid_type" && ADDRESS_FIELD.test(i.path.map(String).join(".")))) return "invalidAddress";
  return "invalidRequest";
}

function summary(code: MailCodeName, issues: FieldIssue[]): string {
  const shown = issues.slice(0, MAX_LISTED_ISSUES).map((i) => i.message);
  const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : "";
  const lead: Partial<Record<MailCodeName, string>> = {
    batchTooLarge: `A batch carries at most ${MAX_BATCH_RECIPIENTS} recipients`,
    batchEmpty: "A batch needs at least one recipient",
  };
  const head = lead[code];
  return `${head ? head + ": " : ""}${shown.join("; ")}${more}`;
}

export function parseMailRequest(kind: SendKind, body: unknown): NormalizedRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new MailServiceError("invalidRequest", 400, "The body must be a JSON object");
  }
  const result = kind === "send" ? sendRequestSchema.safeParse(body) : batchSendRequestSchema.safeParse(body);
  if (!result.success) {
    const raw = result.error.issues as unknown as { code: string; path: PropertyKey[] }[];
    const issues = fieldIssues(result.error);
    const code = classify(kind, raw);
    throw new MailServiceError(code, 400, summary(code, issues), { issues: issues.slice(0, 100) });
  }
  const data = result.data;
  const recipients = "recipient" in data ? [data.recipient] : data.recipients;
  return {
    kind,
    recipients,
    addresser: data.addresser,
    attribs: data.attribs ?? {},
    template: data.template,
  };
}
