// The client's errors, one class per status of spec section 7 plus transport failures. All extend CalibkitError:
// stable `name` and `code`, `status`, `requestId`, `field` where known, and the undici or zod error as `cause`.
import { CalibkitError, type FieldIssue } from "../api/index.js";
import type { Answer, EvaluateResponse } from "../api/index.js";

export interface HttpErrorOptions {
  status: number;
  requestId?: string | undefined;
  field?: string | undefined;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body?: unknown;
  /** Attempts made, the first included (more than 1 when retries happened). */
  attempts?: number;
  cause?: unknown;
}

/** A response with a status the endpoint does not succeed with. Subclasses name the statuses of spec section 7. */
export class HttpError extends CalibkitError {
  override name = "HttpError";
  readonly body: unknown;
  readonly attempts: number;
  declare readonly status: number;

  constructor(message: string, options: HttpErrorOptions, code = "HTTP_ERROR") {
    super(code, message, options);
    this.body = options.body;
    this.attempts = options.attempts ?? 1;
  }
}

/** 401: the API key is missing or invalid. */
export class UnauthorizedError extends HttpError {
  override name = "UnauthorizedError";
  constructor(message: string, options: HttpErrorOptions) {
    super(message, options, "UNAUTHORIZED");
  }
}

/** 422: the service rejected the request; `field` names the first offending field, `issues` all of them. */
export class UnprocessableError extends HttpError {
  override name = "UnprocessableError";
  readonly issues: FieldIssue[];
  constructor(message: string, options: HttpErrorOptions & { issues: FieldIssue[] }) {
    super(message, options, "UNPROCESSABLE");
    this.issues = options.issues;
  }
}

/**
 * 424: a profile has too few examples for the requested guarantee. The body is still an evaluate response whose
 * answers carry `guarantee.kind = "heuristic"`; they are here, parsed, for callers that can use them.
 */
export class InsufficientCalibrationError extends HttpError {
  override name = "InsufficientCalibrationError";
  readonly answers: Record<string, Answer>;
  /** The whole parsed evaluate response, when the body was one. */
  readonly response: EvaluateResponse | undefined;
  constructor(message: string, options: HttpErrorOptions & { response: EvaluateResponse | undefined }) {
    super(message, options, "INSUFFICIENT_CALIBRATION");
    this.response = options.response;
    this.answers = options.response?.answers ?? {};
  }
}

/** 429, after the retries allowed: `retryAfterMs` is what the last `retry-after` asked for. */
export class RateLimitError extends HttpError {
  override name = "RateLimitError";
  readonly retryAfterMs: number | undefined;
  constructor(message: string, options: HttpErrorOptions & { retryAfterMs: number | undefined }) {
    super(message, options, "RATE_LIMITED");
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** 502, after the retries allowed: the model backend failed or reached a lower access level than required. */
export class BackendError extends HttpError {
  override name = "BackendError";
  constructor(message: string, options: HttpErrorOptions) {
    super(message, options, "BACKEND_FAILED");
  }
}

/** 529, after the retries allowed: the service is overloaded. */
export class OverloadedError extends HttpError {
  override name = "OverloadedError";
  constructor(message: string, options: HttpErrorOptions) {
    super(message, options, "OVERLOADED");
  }
}

/** The connection failed (refused, reset, DNS); `cause` is undici's error with its UND_ERR_* or errno code. */
export class NetworkError extends CalibkitError {
  override name = "NetworkError";
  constructor(message: string, cause: unknown) {
    super("NETWORK_ERROR", message, { cause });
  }
}

/** The call's deadline, or an attempt's headers/body timeout, passed. */
export class TimeoutError extends CalibkitError {
  override name = "TimeoutError";
  readonly timeoutMs: number;
  constructor(message: string, timeoutMs: number, cause?: unknown) {
    super("TIMEOUT", message, { cause });
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's AbortSignal aborted the call; `cause` is the signal's reason. */
export class AbortedError extends CalibkitError {
  override name = "AbortedError";
  constructor(message: string, cause: unknown) {
    super("ABORTED", message, { cause });
  }
}

/** A response body that is not JSON or fails its schema; `field` names the first offending field. */
export class ResponseFormatError extends CalibkitError {
  override name = "ResponseFormatError";
  readonly issues: FieldIssue[];
  constructor(message: string, options: { status: number; requestId?: string | undefined; issues?: FieldIssue[]; cause?: unknown }) {
    super("RESPONSE_FORMAT", message, {
      status: options.status, requestId: options.requestId, field: options.issues?.[0]?.field, cause: options.cause,
    });
    this.issues = options.issues ?? [];
  }
}
