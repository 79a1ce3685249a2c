// A real SMTP server on loopback for the mail tests: records every message it accepts, and refuses
// recipients by rule: 550 for `bounce*@`, 451 for the first tries of `defer*@`, 450 always for `tempfail*@`.
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  body: string;
  messageId: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Message-IDs received more than once, with their counts. */
  duplicates(): Map<string, number>;
  close(): Promise<void>;
}

export interface SinkOptions {
  /** 451 answers before a `defer*` recipient is accepted. Default 2. */
  deferTimes?: number;
  /** Delay in ms before each message is acknowledged (widens the in-flight window). Default 0. */
  ackDelayMs?: number;
}

/** Undoes quoted-printable (soft breaks, =XX bytes), which nodemailer uses for non-ASCII text. */
function decodeQuotedPrintable(text: string): string {
  const escaped = text.replace(/%/g, "%25").replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, "%$1");
  return decodeURIComponent(escaped);
}

function parse(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const qp = /quoted-printable/i.test(headers["content-transfer-encoding"] ?? "");
  return { headers, body: qp ? decodeQuotedPrintable(body) : body };
}

export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const deferCounts = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const local = address.address.split("@")[0]!;
      if (local.startsWith("bounce")) {
        return callback(Object.assign(new Error("5.1.1 No such user"), { responseCode: 550 }));
      }
      if (local.startsWith("tempfail")) {
        return callback(Object.assign(new Error("4.3.0 Mailbox busy"), { responseCode: 450 }));
      }
      if (local.startsWith("defer")) {
        const n = (deferCounts.get(address.address) ?? 0) + 1;
        deferCounts.set(address.address, n);
        if (n <= (options.deferTimes ?? 2)) return callback(Object.assign(new Error("4.2.1 Try again later"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const { headers, body } = parse(raw);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          headers,
          body,
          messageId: (headers["message-id"] ?? "").replace(/^<|>$/g, ""),
        });
        if (options.ackDelayMs) setTimeout(() => callback(), options.ackDelayMs);
        else callback();
      });
    },
  });
  // A client killed mid-session resets its connection; smtp-server reports that as a server error.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    duplicates() {
      const counts = new Map<string, number>();
      for (const m of received) counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
      return new Map([...counts].filter(([, n]) => n > 1));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls `check` every 50 ms until it is true or `timeoutMs` passes. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = "condition"): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
