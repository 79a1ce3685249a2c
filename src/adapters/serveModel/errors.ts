// The errors serve-model answers, each carrying what OpenAI's error body needs: the HTTP status, the
// offending parameter (`param`, the SDKs' `error.param`) and OpenAI's code for the failure.
import { CalibkitError } from "../../api/index.js";

export class ServeModelError extends CalibkitError {
  override name = "ServeModelError";
  /** OpenAI's error `type`: `invalid_request_error` for the client's fault, `server_error` otherwise. */
  readonly type: string;
  /** OpenAI's error `code`, e.g. `unsupported_parameter`, `context_length_exceeded`. */
  readonly openaiCode: string | null;

  constructor(status: number, message: string, options: { param?: string; code?: string; type?: string; cause?: unknown } = {}) {
    super("SERVE_MODEL_REQUEST", message, { status, field: options.param, cause: options.cause });
    this.type = options.type ?? (status < 500 ? "invalid_request_error" : "server_error");
    this.openaiCode = options.code ?? null;
  }
}

export const badRequest = (message: string, param?: string, code = "invalid_value") =>
  new ServeModelError(400, message, { param, code });
