// The queue's state in memory, rebuilt from the journal at start and changed only by applying the
// same records that were journaled: what a status read reports is exactly what a restart recovers.
import { canMove, emptyCounts, isFinal, summarize, type DeliveryState, type StateCounts } from "./lifecycle.js";
import type { SendKind } from "./requests.js";

/** Journal record of an accepted send: the rendered message and one message id per recipient. */
export interface AcceptRecord {
  t: "accept";
  id: string;
  kind: SendKind;
  at: string;
  engine: string;
  from: string;
  template: string;
  subject: string;
  text: string;
  html?: string | undefined;
  /** Idempotency-Key and the hash of the request it came with. */
  idem?: { key: string; hash: string } | undefined;
  messages: { m: string; to: string }[];
}

/** Journal record of one delivery state change. */
export interface StateRecord {
  t: "state";
  m: string;
  s: DeliveryState;
  at: string;
  /** Attempts made so far. */
  n: number;
  /** When a deferred message is tried again (epoch ms). */
  next?: number | undefined;
  err?: string | undefined;
}

export type JournalRecord = AcceptRecord | StateRecord;

export interface SendEntry {
  record: AcceptRecord;
  counts: StateCounts;
}

export interface MessageEntry {
  id: string;
  sendId: string;
  to: string;
  state: DeliveryState;
  attempts: number;
  nextAt: number | undefined;
  lastError: string | undefined;
  updatedAt: string;
}

export class SendStore {
  private readonly sends = new Map<string, SendEntry>();
  private readonly messages = new Map<string, MessageEntry>();
  private readonly idempotency = new Map<string, string>();

  apply(record: JournalRecord): void {
    if (record.t === "accept") {
      if (this.sends.has(record.id)) return;
      const counts = emptyCounts();
      counts.pending = record.messages.length;
      this.sends.set(record.id, { record, counts });
      for (const { m, to } of record.messages) {
        this.messages.set(m, { id: m, sendId: record.id, to, state: "pending", attempts: 0, nextAt: undefined, lastError: undefined, updatedAt: record.at });
      }
      if (record.idem) this.idempotency.set(record.idem.key, record.id);
      return;
    }
    const msg = this.messages.get(record.m);
    if (!msg) return;
    // A deferred → deferred step is a new attempt; any other repeat (a replay) changes nothing.
    if (record.s !== msg.state || record.s === "deferred") {
      if (!canMove(msg.state, record.s)) return;
      const send = this.sends.get(msg.sendId)!;
      send.counts[msg.state]--;
      send.counts[record.s]++;
    }
    msg.state = record.s;
    msg.attempts = record.n;
    msg.nextAt = record.next;
    msg.lastError = record.err;
    msg.updatedAt = record.at;
  }

  send(id: string): SendEntry | undefined {
    return this.sends.get(id);
  }

  message(id: string): MessageEntry | undefined {
    return this.messages.get(id);
  }

  messagesOf(sendId: string): MessageEntry[] {
    const send = this.sends.get(sendId);
    return send ? send.record.messages.map((m) => this.messages.get(m.m)!) : [];
  }

  byIdempotencyKey(key: string): SendEntry | undefined {
    const id = this.idempotency.get(key);
    return id === undefined ? undefined : this.sends.get(id);
  }

  /** Messages still to deliver, in acceptance order: what the worker resumes after a restart. */
  unfinished(): MessageEntry[] {
    const out: MessageEntry[] = [];
    for (const m of this.messages.values()) if (!isFinal(m.state)) out.push(m);
    return out;
  }

  /** Messages by delivery state: the queue depth and the delivery outcomes so far, for /metrics. */
  countsByState(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const m of this.messages.values()) counts.set(m.state, (counts.get(m.state) ?? 0) + 1);
    return counts;
  }

  summaryOf(sendId: string) {
    return summarize(this.sends.get(sendId)!.counts);
  }
}

