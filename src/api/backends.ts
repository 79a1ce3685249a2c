// The backends list (spec section 4, GET /backends). The spec shows `backends` but no field of its items, so a
// client reading another service's list requires none: known fields typed when present, the rest kept.
import { z } from "zod";
import { accessLevelSchema } from "./common.js";

const backendInfoFields = {
  name: z.string(),
  provider: z.string(),
  model: z.string().nullable(),
  /** The level detected by probing; null when the backend could not be reached. */
  access_level: accessLevelSchema.nullable(),
  status: z.string(),
  cost_cents_per_call: z.number(),
  cost_cents_per_1k_tokens: z.number(),
};
export const backendInfoSchema = z.looseObject(backendInfoFields).partial();
export type BackendInfo = z.infer<typeof backendInfoSchema>;
export const backendListSchema = z.looseObject({ backends: z.array(backendInfoSchema) });

/** `ok`: probed; `unreachable`: the probe failed (our service's values, docs/api.md). */
export const BACKEND_STATUSES = ["ok", "unreachable"] as const;
/** An item as our own service writes it (docs/api.md): name, provider and level always present. */
export const serviceBackendInfoSchema = z.looseObject({
  ...backendInfoFields,
  model: backendInfoFields.model.optional(),
  status: z.enum(BACKEND_STATUSES).optional(),
  cost_cents_per_call: backendInfoFields.cost_cents_per_call.optional(),
  cost_cents_per_1k_tokens: backendInfoFields.cost_cents_per_1k_tokens.optional(),
});
export type ServiceBackendInfo = z.infer<typeof serviceBackendInfoSchema>;
