// Turns anything a handler throws into a status and a body of spec section 7 (and DESIGN.md's 422 shape):
// 422 → {error: "validation_failed", message, field, issues}; others → {error: <snake_code>, message}.
import { CalibkitError, ValidationError } from "../../api/index.js";
import { StoreUnavailableError } from "../../store/index.js";
import { ServiceError } from "../errors.js";

export interface MappedError {
  status: number;
  body: Record<string, unknown>;
  retryAfter?: number;
}

function isConformalError(err: unknown): err is Error & { code: string; field?: string; status: number } {
  return err instanceof Error && err.name === "ConformalError";
}

export function mapError(err: unknown): MappedError {
  if (err instanceof ValidationError) {
    return {
      status: 422,
      body: { error: "validation_failed", message: err.message, field: err.field ?? "", issues: err.issues },
    };
  }
  if (err instanceof ServiceError && err.status !== undefined) {
    const body: Record<string, unknown> = { error: err.code, message: err.message };
    if (err.field !== undefined) {
      body.field = err.field;
      if (err.status === 422) body.issues = [{ field: err.field, message: err.message }];
    }
    return { status: err.status, body, ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}) };
  }
  if (err instanceof StoreUnavailableError) {
    return { status: 503, body: { error: "store_unavailable", message: err.message }, retryAfter: err.retryAfter };
  }
  if (isConformalError(err)) {
    const field = err.field ?? "";
    return { status: 422, body: { error: "validation_failed", message: err.message, field, issues: [{ field, message: err.message }] } };
  }
  if (err instanceof CalibkitError && err.status !== undefined && err.status >= 400 && err.status < 600) {
    return { status: err.status, body: { error: err.code.toLowerCase(), message: err.message } };
  }
  return { status: 500, body: { error: "internal_error", message: "The service failed to process the request; see its log" } };
}
