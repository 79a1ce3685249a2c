// Typed errors of the prompt formats.
import { CalibkitError } from "../../api/index.js";

/** A prompt setting or item that no format can render (too many choices, a bad template file, a missing exemplar label). */
export class PromptFormatError extends CalibkitError {
  override name = "PromptFormatError";
  constructor(message: string, field = "format") {
    super("PROMPT_FORMAT_INVALID", message, { status: 422, field });
  }
}
