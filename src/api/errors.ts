// The one error hierarchy of calibkit: every error a caller can catch has a stable `name` and `code`,
// the HTTP status where one applies, and the offending field where one is known (undici's UND_ERR_* style).

export interface CalibkitErrorOptions {
  status?: number;
  field?: string;
  /** The service's request id (body `request_id` or `x-request-id` header), when a response carried one. */
  requestId?: string;
  cause?: unknown;
}

export class CalibkitError extends Error {
  override name = "CalibkitError";
  readonly code: string;
  readonly status: number | undefined;
  readonly field: string | undefined;
  readonly requestId: string | undefined;

  constructor(code: string, message: string, options: CalibkitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.field = options.field;
    this.requestId = options.requestId;
  }
}

/** One offending field of a rejected value: a dotted path (`queries.q1.options`) and a sentence. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** A value failed its schema. Carries every offending field; `field` is the first of them. */
export class ValidationError extends CalibkitError {
  override name = "ValidationError";
  readonly issues: FieldIssue[];

  constructor(what: string, issues: FieldIssue[]) {
    const sentences = issues.map((i) => i.message);
    super("VALIDATION_FAILED", `Invalid ${what}: ${sentences.join("; ")}`, {
      status: 422,
      field: issues[0]?.field,
    });
    this.issues = issues;
  }
}
