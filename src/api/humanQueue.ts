// Extension (docs/api.md): GET /human-queue lists the items waiting for a person — the human-review sample of a
// labelling job and answers escalated to a `human_queue` cascade stage.
import { z } from "zod";
import { isoDateSchema } from "./common.js";

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
