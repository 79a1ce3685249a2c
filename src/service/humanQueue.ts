// The human queue (extension, GET /human-queue): answers a cascade escalated to `human_queue` and the
// human-review sample of labelling jobs, waiting for a person. Kept in the store, one row per item,
// committed before the answer that mentions it is sent; every instance on the store lists the same items.
import { randomUUID } from "node:crypto";
import type { HumanQueueItem } from "../api/index.js";
import type { Store } from "../store/index.js";

export interface HumanQueueEntry {
  kind: "escalation" | "labelling";
  profile: string;
  context: unknown;
  query?: string;
  job_id?: string;
  detail?: Record<string, unknown>;
  /** A stable id (a job's review items keep theirs when the job runs again); default a new one. */
  id?: string;
}

export class HumanQueue {
  private constructor(private readonly store: Store) {}

  static async open(store: Store): Promise<HumanQueue> {
    return new HumanQueue(store);
  }

  /** Stores the items (all or none) and returns their ids; an item whose id is already stored is kept as it was. */
  async enqueue(entries: HumanQueueEntry[], now = new Date()): Promise<string[]> {
    const items = entries.map(({ id, ...e }): HumanQueueItem => ({ id: id ?? `hq_${randomUUID()}`, created_at: now.toISOString(), status: "pending", ...e }));
    await this.store.humanQueue.insert(items.map((item) => ({ id: item.id, profile: item.profile, kind: item.kind, status: String(item.status), created_at: item.created_at, item })));
    return items.map((i) => i.id);
  }

  async list(filter: { profile?: string | null; kind?: string | null; status?: string | null } = {}): Promise<HumanQueueItem[]> {
    return (await this.store.humanQueue.list(filter)) as HumanQueueItem[];
  }

  async get(id: string): Promise<HumanQueueItem | undefined> {
    return (await this.store.humanQueue.get(id)) as HumanQueueItem | undefined;
  }

  /** Replaces a stored item (a person resolved it); false when there is none with its id. */
  async update(item: HumanQueueItem): Promise<boolean> {
    return this.store.humanQueue.update(item.id, String(item.status ?? "pending"), item);
  }

  async close(): Promise<void> {}
}
