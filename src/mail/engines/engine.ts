// What a delivery engine is to the worker: it takes one composed message and says whether the next
// hop took it, refused it for good, or failed in a way worth retrying.
import type { AcceptRecord } from "../store.js";

/** One message as an engine receives it: the send's rendered content and this recipient. */
export interface OutgoingMessage {
  messageId: string;
  apiLogId: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string | undefined;
  /** Acceptance time; the Date header, so a resent copy is byte-identical apart from transport headers. */
  date: Date;
}

export type DeliveryOutcome =
  | { kind: "delivered"; detail: string }
  | { kind: "temporary"; detail: string }
  | { kind: "permanent"; detail: string };

export interface DeliveryEngine {
  readonly name: "file" | "smtp";
  /** Most messages worth handing over at once (the SMTP pool's connections). */
  readonly concurrency: number;
  deliver(message: OutgoingMessage): Promise<DeliveryOutcome>;
  dispose(): Promise<void>;
}

export function outgoingOf(record: AcceptRecord, messageId: string, to: string): OutgoingMessage {
  return {
    messageId,
    apiLogId: record.id,
    to,
    from: record.from,
    subject: record.subject,
    text: record.text,
    html: record.html,
    date: new Date(record.at),
  };
}

/** nodemailer's message fields for a message; the RFC 5322 Message-ID is our message_id. */
export function mailOptionsOf(m: OutgoingMessage) {
  return {
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    ...(m.html === undefined ? {} : { html: m.html }),
    date: m.date,
    messageId: `<${m.messageId}>`,
    headers: { "X-Calibkit-Api-Log-Id": m.apiLogId },
  };
}
