// Turns an unsuccessful answer of the evaluation service into the error class of its status (spec section 7).
import { errorBodySchema, errorText, evaluateResponseSchema, fieldIssues, type ErrorBody } from "../api/index.js";
import {
  BackendError, HttpError, InsufficientCalibrationError, OverloadedError, RateLimitError, ResponseFormatError,
  UnauthorizedError, UnprocessableError, type HttpErrorOptions,
} from "./errors.js";
import type { RawResponse } from "./httpTransport.js";
import { parseRetryAfter } from "./retryPolicy.js";

function statusText(status: number): string {
  switch (status) {
    case 401: return "missing or invalid API key";
    case 422: return "the request failed validation";
    case 424: return "a profile has too few examples for the requested guarantee";
    case 429: return "rate limit exceeded";
    case 502: return "the model backend failed";
    case 529: return "the service is overloaded";
    default: return "unexpected status";
  }
}

export function evaluationErrorFrom(raw: RawResponse, what: string, nowMs: number): Error {
  const parsed = errorBodySchema.safeParse(raw.json);
  const body: ErrorBody = parsed.success ? parsed.data : {};
  const requestId = body.request_id ?? raw.headerRequestId;
  const text = errorText(body) ?? (raw.json === undefined && raw.text.trim() !== "" ? raw.text.trim().slice(0, 200) : undefined);
  const retried = raw.trace.attempts > 1 ? ` after ${raw.trace.attempts} attempts${raw.trace.gaveUp ? ` (${raw.trace.gaveUp})` : ""}` : "";
  const message = `${what} failed with ${raw.status} (${statusText(raw.status)})${retried}${text ? `: ${text}` : ""}${requestId ? ` [request ${requestId}]` : ""}`;
  const options: HttpErrorOptions = {
    status: raw.status, requestId, field: body.field, body: raw.json ?? raw.text, attempts: raw.trace.attempts,
  };
  switch (raw.status) {
    case 401:
      return new UnauthorizedError(message, options);
    case 422: {
      const issues = body.issues?.map((i) => ({ field: i.field, message: i.message }))
        ?? (body.field ? [{ field: body.field, message: text ?? `\`${body.field}\` is invalid` }] : []);
      return new UnprocessableError(message, { ...options, field: body.field ?? issues[0]?.field, issues });
    }
    case 424: {
      const hasAnswers = typeof raw.json === "object" && raw.json !== null && "answers" in raw.json;
      const response = evaluateResponseSchema.safeParse(raw.json);
      if (hasAnswers && !response.success) {
        const issues = fieldIssues(response.error);
        return new ResponseFormatError(`${message}; its heuristic answers do not match the spec: ${issues.map((i) => i.message).join("; ")}`, {
          status: 424, requestId, issues, cause: response.error,
        });
      }
      const data = response.success ? { ...response.data, request_id: response.data.request_id ?? requestId } : undefined;
      return new InsufficientCalibrationError(message, { ...options, response: data });
    }
    case 429:
      return new RateLimitError(message, { ...options, retryAfterMs: parseRetryAfter(raw.headers["retry-after"], nowMs) });
    case 502:
      return new BackendError(message, options);
    case 529:
      return new OverloadedError(message, options);
    default:
      return new HttpError(message, options);
  }
}
