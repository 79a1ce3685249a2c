// The durable queue: accepts a validated, rendered send by journaling it before answering, resumes
// unfinished messages after a restart, and reports a send's state by api_log_id.
import { createHash, randomBytes } from "node:crypto";
import type { DeliveryEngine } from "./engines/engine.js";
import { idempotencyConflict, notFound, unavailable, unknownTemplate } from "./errors.js";
import type { Store } from "../store/index.js";
import { MailLog } from "./mailLog.js";
import { injectionOf } from "./lifecycle.js";
import { parseMailRequest, type SendKind } from "./requests.js";
import { SendStore, type AcceptRecord } from "./store.js";
import type { TemplateSet } from "./templates.js";
import { DeliveryWorker, type RetryPolicy } from "./worker.js";

export interface MailQueueOptions {
  store: Store;
  engine: DeliveryEngine;
  templates: TemplateSet;
  defaultAddresser: string;
  messageIdDomain: string;
  retry: RetryPolicy;
  log: (line: string) => void;
}

/** Time-ordered, so ids sort by acceptance; 10 random bytes keep them unguessable. */
const newApiLogId = () => `${Date.now().toString(36).padStart(9, "0")}${randomBytes(10).toString("hex")}`;

const requestHash = (kind: SendKind, body: unknown) =>
  createHash("sha256").update(kind).update("\0").update(JSON.stringify(body)).digest("hex");

export class MailQueue {
  private closed = false;
  /** Idempotency keys whose send is being journaled right now: a concurrent repeat waits for it. */
  private readonly reserving = new Map<string, Promise<string>>();

  private constructor(
    private readonly options: MailQueueOptions,
    private readonly store: SendStore,
    private readonly journal: MailLog,
    private readonly worker: DeliveryWorker,
  ) {}

  static async open(options: MailQueueOptions): Promise<MailQueue> {
    const { log: journal, records } = await MailLog.open(options.store);
    const store = new SendStore();
    for (const r of records) store.apply(r);
    const worker = new DeliveryWorker(store, journal, options.engine, options.retry, options.log);
    const queue = new MailQueue(options, store, journal, worker);
    const resumed = store.unfinished();
    if (resumed.length > 0) options.log(`mail: resuming ${resumed.length} undelivered message(s) from the store`);
    worker.enqueue(resumed.map((m) => m.id));
    return queue;
  }

  /** Validates, renders and journals a send; resolves once it is durable and queued. */
  async accept(kind: SendKind, body: unknown, idempotencyKey?: string) {
    if (this.closed) throw unavailable();
    const req = parseMailRequest(kind, body);
    const templateName = req.template ?? "default";
    if (!this.options.templates.has(templateName)) throw unknownTemplate(templateName, this.options.templates.names());
    const rendered = this.options.templates.render(templateName, req.attribs);

    let idem: AcceptRecord["idem"];
    if (idempotencyKey !== undefined) {
      idem = { key: idempotencyKey, hash: requestHash(kind, body) };
      const earlier = this.store.byIdempotencyKey(idempotencyKey);
      const inFlight = this.reserving.get(idempotencyKey);
      const earlierId = earlier?.record.id ?? (inFlight ? await inFlight.catch(() => undefined) : undefined);
      if (earlierId !== undefined) {
        const prior = this.store.send(earlierId)!.record;
        if (prior.idem?.hash !== idem.hash) throw idempotencyConflict(idempotencyKey);
        // Extension: says that this answer is the first send's and nothing was sent now.
        return { ...this.resultOf(earlierId), idempotent_replay: true };
      }
    }

    const id = newApiLogId();
    const record: AcceptRecord = {
      t: "accept",
      id,
      kind,
      at: new Date().toISOString(),
      engine: this.options.engine.name,
      from: req.addresser ?? this.options.defaultAddresser,
      template: templateName,
      subject: rendered.subject,
      text: rendered.text,
      ...(rendered.html === undefined ? {} : { html: rendered.html }),
      ...(idem ? { idem } : {}),
      messages: req.recipients.map((to, i) => ({ m: `${id}.${i}@${this.options.messageIdDomain}`, to })),
    };
    const durable = this.journal.append([record]).then(() => id);
    if (idem) this.reserving.set(idem.key, durable);
    try {
      await durable;
    } finally {
      if (idem) this.reserving.delete(idem.key);
    }
    this.store.apply(record);
    this.worker.enqueue(record.messages.map((m) => m.m));
    return this.resultOf(id);
  }

  /** Messages by delivery state (queued, deferred, delivered, bounced, failed…). */
  countsByState(): Map<string, number> {
    return this.store.countsByState();
  }

  /** The spec's send or batch result (2.4) for a send, with its current states. */
  resultOf(id: string) {
    const send = this.store.send(id);
    if (!send) throw notFound(`No send with api_log_id "${id}"`);
    const s = this.store.summaryOf(id);
    const common = {
      accepted: true,
      status: s.status,
      api_log_id: id,
      engine: send.record.engine,
      injection_status: s.injection_status,
      delivery_status: s.delivery_status,
    };
    return send.record.kind === "send"
      ? { ...common, message_id: send.record.messages[0]!.m }
      : { ...common, message_ids: send.record.messages.map((m) => m.m) };
  }

  /** The extension status read: the result plus counts and every message's own states. */
  status(id: string) {
    const result = this.resultOf(id);
    const send = this.store.send(id)!;
    const messages = this.store.messagesOf(id);
    return {
      ...result,
      // Both kinds list their message ids here, so one reader serves sends and batches alike.
      message_ids: send.record.messages.map((m) => m.m),
      accepted_at: send.record.at,
      updated_at: messages.reduce((latest, m) => (m.updatedAt > latest ? m.updatedAt : latest), send.record.at),
      template: send.record.template,
      counts: { ...send.counts },
      messages: messages.map((m) => ({
        message_id: m.id,
        recipient: m.to,
        injection_status: injectionOf(m.state),
        delivery_status: m.state,
        attempts: m.attempts,
        updated_at: m.updatedAt,
        ...(m.nextAt !== undefined && m.state === "deferred" ? { next_attempt_at: new Date(m.nextAt).toISOString() } : {}),
        ...(m.lastError !== undefined ? { last_error: m.lastError } : {}),
      })),
    };
  }

  get deliveringNow(): number {
    return this.worker.inFlight;
  }

  /** Stops taking sends, lets in-flight deliveries finish and journal, closes the journal. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker.stop();
    await this.journal.close();
  }
}
