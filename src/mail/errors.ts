// The mail service's failures: each carries the envelope `code` (src/api MAIL_CODES, plus the few
// codes only this service uses) and the HTTP status it is answered with. The HTTP layer turns any
// MailServiceError into a failure envelope; nothing else knows statuses.
import { CalibkitError, MAIL_CODES, type FieldIssue } from "../api/index.js";

/** The envelope codes of our service, spelled once in src/api (docs/mail.md lists them all). */
export const MAIL_SERVICE_CODES = MAIL_CODES;
export type MailCodeName = keyof typeof MAIL_SERVICE_CODES;

export class MailServiceError extends CalibkitError {
  override name = "MailServiceError";
  /** The envelope code (a number), beside CalibkitError's string `code` (its name). */
  readonly envelopeCode: number;
  /** Offending fields of a rejected request; returned in the envelope's `data.errors`. */
  readonly issues: FieldIssue[];

  constructor(code: MailCodeName, status: number, message: string, options: { issues?: FieldIssue[]; cause?: unknown } = {}) {
    super(code, message, { status, field: options.issues?.[0]?.field, cause: options.cause });
    this.envelopeCode = MAIL_SERVICE_CODES[code];
    this.issues = options.issues ?? [];
  }
}

/** The configuration (file, flags, environment) cannot start a service. */
export class MailConfigError extends CalibkitError {
  override name = "MailConfigError";
  constructor(message: string, options: { field?: string; cause?: unknown } = {}) {
    super("MAIL_CONFIG_INVALID", message, options);
  }
}

/** The journal of the mail service before the store cannot be read back (a damaged line before its end). */
export class JournalCorruptError extends CalibkitError {
  override name = "JournalCorruptError";
  constructor(path: string, line: number, cause?: unknown) {
    super("MAIL_JOURNAL_CORRUPT", `The mail journal ${path} is damaged at line ${line}${cause instanceof Error ? ` (${cause.message})` : ""}; nothing was imported: mend or remove that line and import again`, { cause });
  }
}

export const malformedJson = (why: string) =>
  new MailServiceError("invalidRequest", 400, `The body is not valid JSON: ${why}`);
export const unauthorized = () =>
  new MailServiceError("unauthorized", 401, "Missing or invalid X-API-Key header");
export const notFound = (what: string) => new MailServiceError("notFound", 404, what);
export const bodyTooLarge = (limit: number) =>
  new MailServiceError("bodyTooLarge", 413, `The request body exceeds the limit of ${limit} bytes (config max_body_bytes)`);
export const unsupportedMediaType = (got: string | undefined) =>
  new MailServiceError("unsupportedRequest", 415, `Requests must carry Content-Type: application/json${got ? `, not ${got}` : ""}`);
export const methodNotAllowed = (method: string, path: string) =>
  new MailServiceError("unsupportedRequest", 405, `${method} is not allowed on ${path}`);
export const unknownTemplate = (name: string, known: string[]) =>
  new MailServiceError("unknownTemplate", 422, `Unknown template "${name}"; configured: ${known.join(", ")}`, {
    issues: [{ field: "template", message: `\`template\` must be one of ${known.map((k) => JSON.stringify(k)).join(", ")}` }],
  });
export const templateAttributeMissing = (template: string, names: string[]) =>
  new MailServiceError(
    "templateAttributeMissing",
    422,
    `Template "${template}" needs attribute${names.length > 1 ? "s" : ""} ${names.map((n) => `\`${n}\``).join(", ")} missing from \`attribs\``,
    { issues: names.map((n) => ({ field: `attribs.${n}`, message: `\`attribs.${n}\` is required by template "${template}"` })) },
  );
export const idempotencyConflict = (key: string) =>
  new MailServiceError("idempotencyConflict", 409, `Idempotency-Key "${key}" was used before with a different request`);
export const unavailable = (why = "The mail service is shutting down", retryAfter?: number) => {
  const err = new MailServiceError("unavailable", 503, why);
  return retryAfter === undefined ? err : Object.assign(err, { retryAfter });
};
export const internal = (cause: unknown) =>
  new MailServiceError("internal", 500, "Internal error; the request was not accepted", { cause });
