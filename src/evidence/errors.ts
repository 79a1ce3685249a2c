// Typed errors of the evidence builder.
import { CalibkitError } from "../api/index.js";

/** A query cannot be turned into evidence (for example a judge context without candidates). */
export class EvidenceError extends CalibkitError {
  override name = "EvidenceError";
  constructor(message: string, field?: string) {
    super("EVIDENCE_UNAVAILABLE", message, { status: 422, field });
  }
}
