// The queue's durable record in the store: accepted sends and each message's delivery state, written in
// one transaction and committed before anyone is told they exist. Writes made while a commit is running
// are committed together (group commit), so a 1,000-message delivery does not pay 1,000 commits one after
// another. At start it gives back what the in-memory SendStore is rebuilt from.
import type { MailAccept, MailStateChange, Store } from "../store/index.js";
import type { AcceptRecord, JournalRecord } from "./store.js";

interface Pending {
  records: readonly JournalRecord[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** A send whose Idempotency-Key another instance stored first. */
export class IdempotencyKeyTakenElsewhere extends Error {
  override name = "IdempotencyKeyTakenElsewhere";
}

export class MailLog {
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;

  private constructor(private readonly store: Store) {}

  /** Opens the log and returns the records that rebuild the queue: every accept, then every state change. */
  static async open(store: Store): Promise<{ log: MailLog; records: JournalRecord[] }> {
    const records: JournalRecord[] = (await store.mail.sends()) as AcceptRecord[];
    for (const m of await store.mail.movedMessages()) {
      records.push({ t: "state", m: m.id, s: m.state as never, at: m.updatedAt, n: m.attempts, next: m.nextAt, err: m.lastError });
    }
    return { log: new MailLog(store), records };
  }

  /** Resolves once every record is committed. */
  append(records: readonly JournalRecord[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the mail log is closed"));
    const done = new Promise<void>((resolve, reject) => this.pending.push({ records, resolve, reject }));
    this.flushing ??= this.flushLoop();
    return done;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        const accepts: MailAccept[] = [];
        const changes: MailStateChange[] = [];
        for (const r of batch.flatMap((p) => p.records)) {
          if (r.t === "accept") accepts.push({ id: r.id, record: r, acceptedAt: r.at, idempotencyKey: r.idem?.key, messages: r.messages.map((m) => ({ id: m.m, to: m.to })) });
          else changes.push({ id: r.m, state: r.s, attempts: r.n, nextAt: r.next, lastError: r.err, updatedAt: r.at });
        }
        try {
          const { taken } = await this.store.mail.write(accepts, changes);
          // A key another instance took fails only the append that carried it, not those committed beside it.
          for (const p of batch) {
            const lost = p.records.find((r) => r.t === "accept" && taken.has(r.id));
            if (lost) p.reject(new IdempotencyKeyTakenElsewhere(`Idempotency-Key ${(lost as AcceptRecord).idem?.key} was taken by another instance`));
            else p.resolve();
          }
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
  }
}
