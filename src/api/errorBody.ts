// Error bodies (spec section 7): a human-readable text in `message`, `detail` or `error`; a 422 names the
// offending field in `field` (DESIGN.md).
import { z } from "zod";

export const errorBodySchema = z.looseObject({
  error: z.string().optional(),
  message: z.string().optional(),
  detail: z.unknown().optional(),
  field: z.string().optional(),
  request_id: z.string().optional(),
  /** Every offending field of a 422, beyond the first in `field`. */
  issues: z.array(z.looseObject({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The human-readable text of an error body, whichever key holds it. */
export function errorText(body: ErrorBody): string | undefined {
  if (body.message) return body.message;
  if (typeof body.detail === "string") return body.detail;
  if (body.detail !== undefined) return JSON.stringify(body.detail);
  return body.error;
}
