// Extension: POST /human-queue/{id}/resolve — a person answers an escalated query (or reviews a judge label),
// and the answer becomes a labelled example of the item's profile. The example is added under the
// Idempotency-Key `human:<id>`, so a retried resolve never adds it twice; resolving again with the same label
// answers the stored resolution, with another label is a 409 (add a corrected example instead).
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { parseOrThrow, resolveHumanQueueItemRequestSchema, type ExampleRecord, type HumanQueueItem } from "../api/index.js";
import { conflict, notFound } from "./errors.js";
import type { HumanQueue } from "./humanQueue.js";
import { prepareExamples } from "./profiles/ingest.js";
import type { ProfileStore } from "./profiles/profileStore.js";

export async function resolveHumanQueueItem(id: string, body: unknown, deps: { humanQueue: HumanQueue; profiles: ProfileStore }, now = new Date()): Promise<HumanQueueItem> {
  const request = parseOrThrow(resolveHumanQueueItemRequestSchema, body, "resolve request");
  const item = await deps.humanQueue.get(id);
  if (!item) throw notFound(`No human-queue item "${id}"`, "id");
  const done = (item as { resolution?: { label?: unknown } }).resolution;
  if (item.status === "resolved" && done) {
    if (isDeepStrictEqual(done.label, request.label)) return item;
    throw conflict(`Human-queue item "${id}" was already resolved with the label ${JSON.stringify(done.label)}`);
  }
  let version: number | undefined;
  if (request.add_example) {
    const detail = (item as { detail?: { evidence?: unknown } }).detail;
    const example: ExampleRecord = {
      context: item.context as ExampleRecord["context"],
      label: request.label,
      source: "human",
      metadata: { human_queue_item: id, ...(item.query !== undefined ? { query: item.query } : {}), ...(detail?.evidence !== undefined ? { evidence: detail.evidence } : {}) },
    };
    await deps.profiles.fetch(item.profile);
    const key = `human:${id}`;
    const sha256 = createHash("sha256").update(JSON.stringify(example)).digest("hex");
    version = await deps.profiles.change(item.profile, async (state) => {
      if (state.idempotency.has(key)) return { result: (s) => s.version }; // added by an earlier, interrupted resolve
      const { record } = prepareExamples(state, [example], { key, sha256 });
      return { record, result: (s) => s.version };
    });
  }
  const resolved: HumanQueueItem = {
    ...item,
    status: "resolved",
    resolution: {
      label: request.label, resolved_at: now.toISOString(), example_added: request.add_example,
      ...(version !== undefined ? { profile_version: version } : {}), ...(request.note !== undefined ? { note: request.note } : {}),
    },
  };
  await deps.humanQueue.update(resolved);
  return resolved;
}
