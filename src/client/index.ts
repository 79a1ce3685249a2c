// The HTTP clients of both services: EvaluationClient, MailClient, their errors, retry policy and dispatcher.
export { EvaluationClient, type EvaluationClientOptions, type WithRequestId } from "./evaluationClient.js";
export type { HttpClientOptions } from "./clientOptions.js";
export type { CallOptions } from "./httpTransport.js";
export { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from "./httpTransport.js";
export {
  AbortedError, BackendError, HttpError, InsufficientCalibrationError, NetworkError, OverloadedError,
  RateLimitError, ResponseFormatError, TimeoutError, UnauthorizedError, UnprocessableError, type HttpErrorOptions,
} from "./errors.js";
export {
  backoffCeilingMs, decideRetry, DEFAULT_RETRY_POLICY, parseRetryAfter, resolveRetryPolicy, RETRIED_STATUSES,
  type AttemptOutcome, type ResolvedRetryPolicy, type RetryDecision, type RetryPolicy,
} from "./retryPolicy.js";
export { systemClock, type Clock } from "./clock.js";
export { createClientDispatcher, sharedClientDispatcher, type ClientDispatcherOptions } from "./dispatcher.js";
export { MailClient, type MailClientOptions } from "./mailClient.js";
export { MailServiceError, MailTransportError } from "./mailErrors.js";
export { mailApiPrefix } from "./mailUrl.js";
// Client-side cross-check of the service against the local conformal engine (run engineer's file).
export * from "./crossCheck.js";
export { checkAudit, checkMonitor, localMonitorPath, type MonitorPath } from "./crossCheckAudit.js";
