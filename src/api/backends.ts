// The backends list (spec section 4, GET /backends). Item fields are our decision (docs/api.md).
import { z } from "zod";
import { accessLevelSchema } from "./common.js";

export const backendInfoSchema = z.looseObject({
  name: z.string(),
  provider: z.string(),
  model: z.string().nullable().optional(),
  /** The level detected by probing; null when the backend could not be reached. */
  access_level: accessLevelSchema.nullable(),
  status: z.enum(["ok", "unreachable"]).optional(),
  cost_cents_per_call: z.number().optional(),
  cost_cents_per_1k_tokens: z.number().optional(),
});
export type BackendInfo = z.infer<typeof backendInfoSchema>;
export const backendListSchema = z.looseObject({ backends: z.array(backendInfoSchema) });
