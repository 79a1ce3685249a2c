// The SMTP engine: nodemailer's pooled transport with bounded timeouts. The engine classifies each
// outcome; retrying and backoff belong to the worker, so a deferred message survives a restart.
import nodemailer, { type NodemailerError } from "nodemailer";
import { mailOptionsOf, type DeliveryEngine, type DeliveryOutcome, type OutgoingMessage } from "./engine.js";

export interface SmtpEngineOptions {
  /** Relay address: `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://...` (TLS). */
  url: string;
  /** Pooled connections, also the messages in flight at once. Default 5. */
  maxConnections?: number;
  /** Milliseconds to connect, to wait for the greeting, and of socket inactivity. Default 30,000. */
  timeoutMs?: number;
}

/** Permanent: a 5xx reply (nodemailer's `permanent`); anything without a reply (a dropped connection) is temporary. */
function classify(err: NodemailerError): DeliveryOutcome {
  const reply = err.responseCode ? `${err.responseCode} ${err.response ?? err.message}` : `${err.code ?? "error"}: ${err.message}`;
  const permanent = err.permanent ?? (err.responseCode !== undefined && err.responseCode >= 500 && err.responseCode !== 503);
  return { kind: permanent ? "permanent" : "temporary", detail: reply };
}

export async function createSmtpEngine(options: SmtpEngineOptions): Promise<DeliveryEngine> {
  const maxConnections = options.maxConnections ?? 5;
  const timeout = options.timeoutMs ?? 30_000;
  const transport = nodemailer.createTransport({
    pool: true,
    url: options.url,
    maxConnections,
    // Reconnecting every 100 messages costs little but adds a window for a requeue.
    maxMessages: 1000,
    // The worker retries; the pool putting a message back itself would hide attempts from the journal.
    maxRequeues: 0,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });

  async function deliver(message: OutgoingMessage): Promise<DeliveryOutcome> {
    try {
      const info = await transport.sendMail(mailOptionsOf(message));
      const rejected = (info.rejected ?? []).map(String);
      if (rejected.length > 0) {
        const why = info.rejectedErrors?.[0];
        return why ? classify(why) : { kind: "permanent", detail: `recipient refused: ${rejected.join(", ")}` };
      }
      return { kind: "delivered", detail: String(info.response ?? "accepted") };
    } catch (err) {
      return classify(err as NodemailerError);
    }
  }

  return {
    name: "smtp",
    concurrency: maxConnections,
    deliver,
    async dispose() {
      transport.close();
    },
  };
}

/** Masks the password of an SMTP URL for logs and answers. */
export function redactSmtpUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(invalid URL)";
  }
}
