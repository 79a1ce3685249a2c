// The service's wire errors: each extends CalibkitError with its HTTP status and a snake_case code that
// becomes the body's `error`. The HTTP layer maps any of them to a response; nothing else knows statuses.
import { CalibkitError } from "../api/index.js";

export class ServiceError extends CalibkitError {
  override name = "ServiceError";
  /** Seconds the client should wait before retrying (429, 529). */
  readonly retryAfter: number | undefined;
  constructor(status: number, code: string, message: string, options: { field?: string; cause?: unknown; retryAfter?: number } = {}) {
    super(code, message, { status, field: options.field, cause: options.cause });
    this.retryAfter = options.retryAfter;
  }
}

export const badJson = (message: string) => new ServiceError(400, "malformed_json", message);
export const unauthorized = (message: string) => new ServiceError(401, "unauthorized", message);
export const notFound = (message: string, field?: string) =>
  new ServiceError(404, "not_found", message, field === undefined ? {} : { field });
export const methodNotAllowed = (method: string, path: string) =>
  new ServiceError(405, "method_not_allowed", `${method} is not allowed on ${path}`);
export const conflict = (message: string) => new ServiceError(409, "conflict", message);
export const payloadTooLarge = (limit: number) =>
  new ServiceError(413, "payload_too_large", `The request body exceeds the limit of ${limit} bytes (config max_body_bytes)`);
export const unsupportedMediaType = (got: string | undefined) =>
  new ServiceError(415, "unsupported_media_type", `Requests must carry Content-Type: application/json${got ? `, not ${got}` : ""}`);
export const rateLimited = (retryAfter: number) =>
  new ServiceError(429, "rate_limited", `Rate limit exceeded; retry after ${retryAfter} s`, { retryAfter });
export const authThrottled = (retryAfter: number, limit: number) =>
  new ServiceError(429, "rate_limited", `Too many failed authentications from this address (more than ${limit} a minute); retry after ${retryAfter} s`, { retryAfter });
export const requestTimeout = (ms: number) =>
  new ServiceError(408, "request_timeout", `The request body did not arrive within ${ms} ms (config body_timeout_ms); the connection is closed`);
export const backendFailed = (message: string, cause?: unknown) =>
  new ServiceError(502, "backend_failed", message, { cause });
export const overloaded = (retryAfter: number, why: string) =>
  new ServiceError(529, "overloaded", `The service is temporarily overloaded (${why}); retry after ${retryAfter} s`, { retryAfter });

/** A 422 naming one field; ValidationError from src/api covers schema failures with several. */
export const invalidField = (field: string, message: string) =>
  new ServiceError(422, "validation_failed", message, { field });
