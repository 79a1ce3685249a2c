// The human queue (extension, GET /human-queue): answers a cascade escalated to `human_queue` and the
// human-review sample of labelling jobs, waiting for a person. Durable like the profiles: one WAL line per
// item, fsynced before the answer that mentions it is sent.
import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { HumanQueueItem } from "../api/index.js";
import { WriteAheadLog } from "./store/wal.js";

export interface HumanQueueEntry {
  kind: "escalation" | "labelling";
  profile: string;
  context: unknown;
  query?: string;
  job_id?: string;
  detail?: Record<string, unknown>;
}

export class HumanQueue {
  private constructor(private readonly wal: WriteAheadLog<HumanQueueItem>, private readonly items: HumanQueueItem[]) {}

  static async open(dataDir: string): Promise<HumanQueue> {
    const dir = join(dataDir, "human-queue");
    await mkdir(dir, { recursive: true });
    const { wal, recovery } = await WriteAheadLog.open<HumanQueueItem>(join(dir, "wal.jsonl"));
    return new HumanQueue(wal, recovery.records);
  }

  /** Appends items durably (one line each) and returns their ids. Appends are serialised by the caller's order. */
  private tail: Promise<unknown> = Promise.resolve();

  async enqueue(entries: HumanQueueEntry[], now = new Date()): Promise<string[]> {
    const items = entries.map((e): HumanQueueItem => ({ id: `hq_${randomUUID()}`, created_at: now.toISOString(), status: "pending", ...e }));
    const run = this.tail.then(async () => {
      for (const item of items) await this.wal.append(item);
      this.items.push(...items);
    });
    this.tail = run.catch(() => undefined);
    await run;
    return items.map((i) => i.id);
  }

  list(filter: { profile?: string | null; kind?: string | null } = {}): HumanQueueItem[] {
    return this.items.filter((i) => (!filter.profile || i.profile === filter.profile) && (!filter.kind || i.kind === filter.kind));
  }

  async close(): Promise<void> {
    await this.tail;
    await this.wal.close();
  }
}
