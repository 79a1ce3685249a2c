// Extension (docs/api.md): GET /human-queue lists the items waiting for a person — the human-review sample of a
// labelling job and answers escalated to a `human_queue` cascade stage.
import { z } from "zod";
import { isoDateSchema } from "./common.js";
import { exampleRecordSchema } from "./profile.js";

/** `labelling`: a judge-labelled example drawn for human review; `escalation`: a cascade reached `human_queue`. */
export const HUMAN_QUEUE_KINDS = ["labelling", "escalation"] as const;

export const humanQueueItemSchema = z.looseObject({
  id: z.string(),
  profile: z.string(),
  kind: z.string(),
  context: z.unknown(),
  /** The query that escalated (escalation items). */
  query: z.string().optional(),
  /** The labelling job the item belongs to (labelling items). */
  job_id: z.string().optional(),
  created_at: isoDateSchema,
});
export type HumanQueueItem = z.infer<typeof humanQueueItemSchema>;
export const humanQueueSchema = z.looseObject({ items: z.array(humanQueueItemSchema) });
export type HumanQueue = z.infer<typeof humanQueueSchema>;

/**
 * Extension: POST /human-queue/{id}/resolve. A person's answer (`label`, shaped as an example label) resolves the
 * item; unless `add_example` is false the item's context with that label joins the item's profile as a labelled
 * example (`source: "human"`).
 */
export const resolveHumanQueueItemRequestSchema = z.looseObject({
  label: exampleRecordSchema.shape.label,
  add_example: z.boolean().default(true),
  note: z.string().max(2000).optional(),
});
export type ResolveHumanQueueItemRequest = z.input<typeof resolveHumanQueueItemRequestSchema>;
export const humanQueueResolutionSchema = z.looseObject({
  label: z.unknown(),
  resolved_at: isoDateSchema,
  example_added: z.boolean(),
  /** The profile version that holds the added example. */
  profile_version: z.number().optional(),
  note: z.string().optional(),
});
export const resolvedHumanQueueItemSchema = humanQueueItemSchema.extend({ status: z.literal("resolved"), resolution: humanQueueResolutionSchema });
