// The delivery worker: takes queued messages in order, hands each to the engine, journals the
// outcome, and only then takes the next. That order is the at-least-once rule of docs/mail.md: a kill
// can only re-send messages the engine had taken but whose outcome was not yet journaled, at most
// `concurrency` of them.
import type { DeliveryEngine } from "./engines/engine.js";
import { outgoingOf } from "./engines/engine.js";
import type { MailLog } from "./mailLog.js";
import { isFinal } from "./lifecycle.js";
import type { SendStore, StateRecord } from "./store.js";

export interface RetryPolicy {
  /** Attempts before a temporarily failing message is `failed`. Default 8. */
  maxAttempts: number;
  /** First retry delay in ms, doubled per attempt. Default 1,000. */
  backoffBaseMs: number;
  /** Longest retry delay in ms. Default 300,000. */
  backoffMaxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, backoffBaseMs: 1_000, backoffMaxMs: 300_000 };

/** Exponential backoff with half jitter, so retries of one batch do not hit the relay together. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + (cap / 2) * random());
}

export class DeliveryWorker {
  private readonly ready: string[] = [];
  private head = 0;
  private active = 0;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopping = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: SendStore,
    private readonly journal: MailLog,
    private readonly engine: DeliveryEngine,
    private readonly policy: RetryPolicy,
    private readonly log: (line: string) => void,
  ) {}

  /** Queues messages now, or at their retry time when they were deferred. */
  enqueue(messageIds: readonly string[]): void {
    const now = Date.now();
    for (const id of messageIds) {
      const m = this.store.message(id);
      if (!m || isFinal(m.state)) continue;
      if (m.state === "deferred" && m.nextAt !== undefined && m.nextAt > now) this.schedule(id, m.nextAt - now);
      else this.ready.push(id);
    }
    this.pump();
  }

  get inFlight(): number {
    return this.active;
  }

  private schedule(id: string, delay: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.ready.push(id);
      this.pump();
    }, delay);
    this.timers.set(id, timer);
  }

  private pump(): void {
    while (!this.stopping && this.active < this.engine.concurrency && this.head < this.ready.length) {
      const id = this.ready[this.head++]!;
      if (this.head > 4096 && this.head * 2 > this.ready.length) {
        this.ready.splice(0, this.head);
        this.head = 0;
      }
      this.active++;
      void this.work(id).finally(() => {
        this.active--;
        if (this.active === 0) for (const w of this.idleWaiters.splice(0)) w();
        this.pump();
      });
    }
  }

  private async work(id: string): Promise<void> {
    const msg = this.store.message(id);
    if (!msg || isFinal(msg.state)) return;
    const send = this.store.send(msg.sendId)!;
    const outcome = await this.engine.deliver(outgoingOf(send.record, msg.id, msg.to));
    const attempts = msg.attempts + 1;
    const at = new Date().toISOString();
    let record: StateRecord;
    if (outcome.kind === "delivered") record = { t: "state", m: id, s: "delivered", at, n: attempts };
    else if (outcome.kind === "permanent") record = { t: "state", m: id, s: "bounced", at, n: attempts, err: outcome.detail };
    else if (attempts >= this.policy.maxAttempts) record = { t: "state", m: id, s: "failed", at, n: attempts, err: outcome.detail };
    else record = { t: "state", m: id, s: "deferred", at, n: attempts, next: Date.now() + backoffMs(this.policy, attempts), err: outcome.detail };
    try {
      await this.journal.append([record]);
    } catch (err) {
      // The outcome stands in memory; after a restart the message is delivered again (at-least-once).
      this.log(`mail: could not journal ${record.s} of ${id}: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.store.apply(record);
    if (record.s === "deferred" && !this.stopping) this.schedule(id, record.next! - Date.now());
  }

  /** Takes no new message, waits for those in flight to finish and be journaled. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    if (this.active > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }
}
