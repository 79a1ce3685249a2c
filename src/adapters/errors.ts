// Typed errors of the adapters, all in the CalibkitError hierarchy so callers catch one family.
import { CalibkitError, type AccessLevel } from "../api/index.js";

/** The backend exposes less than was asked of it. Never silently downgraded (spec 7: 502). */
export class AccessLevelError extends CalibkitError {
  override name = "AccessLevelError";
  readonly requested: AccessLevel;
  readonly detected: AccessLevel;

  constructor(requested: AccessLevel, detected: AccessLevel, what: string) {
    super(
      "ACCESS_LEVEL_UNAVAILABLE",
      `${what} needs access level ${requested}, but the backend exposes only ${detected}`,
      { status: 502 },
    );
    this.requested = requested;
    this.detected = detected;
  }
}

/** The model engine or server failed; the original error is the cause. */
export class AdapterError extends CalibkitError {
  override name = "AdapterError";
  constructor(message: string, cause?: unknown) {
    super("ADAPTER_FAILED", message, { status: 502, cause });
  }
}

/** A model path or URL that no adapter can open. */
export class ModelNotFoundError extends CalibkitError {
  override name = "ModelNotFoundError";
  constructor(message: string) {
    super("MODEL_NOT_FOUND", message, { status: 404 });
  }
}

/** The adapter was used after dispose(). */
export class AdapterDisposedError extends CalibkitError {
  override name = "AdapterDisposedError";
  constructor(model: string) {
    super("ADAPTER_DISPOSED", `The adapter for ${model} has been disposed`);
  }
}

/** A chat template that cannot be read or rendered (a missing file, invalid Jinja, a role it refuses). */
export class ChatTemplateError extends CalibkitError {
  override name = "ChatTemplateError";
  constructor(message: string, cause?: unknown) {
    super("CHAT_TEMPLATE_INVALID", message, { status: 422, field: "chat_template", cause });
  }
}
