// Monitors and their alerts (spec 2.7). Alerts are read, never pushed.
import { z } from "zod";
import { isoDateSchema, unitIntervalSchema } from "./common.js";

/** `coverage` watches miscoverage of set/interval answers; `risk` watches the gate's loss (docs/api.md). */
export const MONITOR_TYPES = ["coverage", "risk"] as const;
/** `active` watches; `alarmed` has raised its alert and keeps counting (docs/api.md). */
export const MONITOR_STATUSES = ["active", "alarmed"] as const;

export const createMonitorRequestSchema = z.looseObject({
  type: z.enum(MONITOR_TYPES),
  false_alarm_rate: unitIntervalSchema,
  target: unitIntervalSchema.optional(),
  labelled_sample_rate: z.number().gt(0).max(1).default(1),
  use_judge_pseudo_labels: z.boolean().default(false),
});
export type CreateMonitorRequest = z.input<typeof createMonitorRequestSchema>;

export const monitorSchema = z.looseObject({
  id: z.string(),
  profile: z.string(),
  type: z.string(),
  target: z.number(),
  false_alarm_rate: z.number(),
  labelled_sample_rate: z.number(),
  status: z.string(),
});
export type Monitor = z.infer<typeof monitorSchema>;
export const monitorListSchema = z.looseObject({ monitors: z.array(monitorSchema) });

export const alertSchema = z.looseObject({
  type: z.string(),
  severity: z.string(),
  n: z.number(),
  e_value: z.number(),
  target: z.number(),
  false_alarm_rate: z.number(),
  detected_at: isoDateSchema,
  message: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;
export const alertListSchema = z.looseObject({ alerts: z.array(alertSchema) });
