// The mail service in-process against a real SMTP server on loopback: what arrives, the lifecycles,
// and every failure envelope of docs/mail.md.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIL_CODES, MAX_BATCH_RECIPIENTS } from "../../src/api/index.js";
import { mailConfigOf, startMailService, type MailService } from "../../src/mail/index.js";
import { post, status } from "./mailHttp.js";
import { startSmtpSink, waitFor, type SmtpSink } from "./smtpSink.js";

const config = {
  ...mailConfigOf({
    keys: ["test-key-0001"],
    templates: {
      alert: {
        subject: "[{{severity}}] {{title}}",
        text: "Hello {{name}},\n{{message}}\n{{footer?}}",
        html: "<p>Hello {{name}}</p><p>{{message}}</p>",
      },
    },
    default_addresser: "noreply@calibkit.example",
    delivery: { max_attempts: 3, backoff_base_ms: 50, backoff_max_ms: 200 },
  }),
  engine: "smtp" as const,
};

let sink: SmtpSink;
let service: MailService;
let dir: string;

beforeAll(async () => {
  sink = await startSmtpSink({ deferTimes: 1 });
  dir = await mkdtemp(join(tmpdir(), "calibkit-mail-"));
  service = await startMailService({ dataDir: dir, config: { ...config, smtpUrl: sink.url }, log: () => {} });
});
afterAll(async () => {
  await service?.close();
  await sink?.close();
  await rm(dir, { recursive: true, force: true });
});

const delivered = async (id: string) => (await status(service.url, id)).body.data.status !== "queued";

describe("sending", () => {
  it("delivers a templated single send with the right recipient, subject and filled attributes", async () => {
    const a = await post(service.url, "send", {
      recipient: "ops@example.org",
      template: "alert",
      attribs: { severity: "high", title: "coverage dropped", name: "Ops <team>", message: "e-value 31 > 20", footer: null },
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ success: true, code: 0, msg: "success" });
    expect(a.body.data).toMatchObject({ accepted: true, status: "queued", engine: "smtp", injection_status: "queued", delivery_status: "pending" });
    const { api_log_id: id, message_id: mid } = a.body.data;
    expect(mid).toMatch(new RegExp(`^${id}\\.0@`));
    await waitFor(() => delivered(id), 10_000, "delivery");
    const got = sink.received.find((m) => m.messageId === mid)!;
    expect(got.to).toEqual(["ops@example.org"]);
    expect(got.from).toBe("noreply@calibkit.example");
    expect(got.headers.subject).toBe("[high] coverage dropped");
    expect(got.raw).toContain("Hello Ops <team>,");
    expect(got.raw).toContain("e-value 31 > 20");
    // The HTML part carries the same values escaped.
    expect(got.raw).toContain("Hello Ops &lt;team&gt;");
    const s = await status(service.url, id);
    expect(s.body.data).toMatchObject({ status: "completed", injection_status: "injected", delivery_status: "delivered", message_id: mid });
    expect(s.body.data.messages).toEqual([expect.objectContaining({ message_id: mid, recipient: "ops@example.org", delivery_status: "delivered", attempts: 1 })]);
  });

  it("delivers a batch: one message per recipient, bounces 5xx, retries 4xx", async () => {
    const recipients = ["a@example.org", "b@example.org", "bounce-1@example.org", "defer-1@example.org"];
    const a = await post(service.url, "batch_send", { recipients, addresser: "me@example.org", attribs: { subject: "Weekly", text: "Body" } });
    expect(a.status).toBe(200);
    const { api_log_id: id, message_ids } = a.body.data;
    expect(message_ids).toHaveLength(4);
    await waitFor(() => delivered(id), 10_000, "batch");
    const s = (await status(service.url, id)).body.data;
    expect(s).toMatchObject({ status: "completed_with_failures", injection_status: "partial", delivery_status: "partial" });
    expect(s.counts).toEqual({ pending: 0, deferred: 0, delivered: 3, bounced: 1, failed: 0 });
    const byTo = Object.fromEntries(s.messages.map((m: any) => [m.recipient, m]));
    expect(byTo["bounce-1@example.org"]).toMatchObject({ delivery_status: "bounced", injection_status: "failed", attempts: 1 });
    expect(byTo["bounce-1@example.org"].last_error).toMatch(/550/);
    expect(byTo["defer-1@example.org"]).toMatchObject({ delivery_status: "delivered", attempts: 2 });
    for (const to of ["a@example.org", "b@example.org", "defer-1@example.org"]) {
      const got = sink.received.filter((m) => m.to.includes(to) && message_ids.includes(m.messageId));
      expect(got).toHaveLength(1);
      expect(got[0]!.headers.subject).toBe("Weekly");
      expect(got[0]!.from).toBe("me@example.org");
    }
  });

  it("marks a message failed once retries are exhausted", async () => {
    const a = await post(service.url, "send", { recipient: "tempfail@example.org" });
    await waitFor(() => delivered(a.body.data.api_log_id), 10_000);
    const s = (await status(service.url, a.body.data.api_log_id)).body.data;
    expect(s).toMatchObject({ status: "completed_with_failures", injection_status: "failed", delivery_status: "failed" });
    expect(s.messages[0]).toMatchObject({ attempts: 3, delivery_status: "failed" });
    expect(s.messages[0].last_error).toMatch(/450/);
  });

  it("answers a repeated Idempotency-Key with the first send and sends once", async () => {
    const body = { recipient: "idem@example.org", attribs: { subject: "once" } };
    const first = await post(service.url, "send", body, { "idempotency-key": "alert-42" });
    const again = await post(service.url, "send", body, { "idempotency-key": "alert-42" });
    expect(again.body.data.api_log_id).toBe(first.body.data.api_log_id);
    const other = await post(service.url, "send", { ...body, attribs: { subject: "different" } }, { "idempotency-key": "alert-42" });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ success: false, code: 1409 });
    await waitFor(() => delivered(first.body.data.api_log_id));
    expect(sink.received.filter((m) => m.to.includes("idem@example.org"))).toHaveLength(1);
  });
});

describe("failure envelopes", () => {
  const cases: [string, "send" | "batch_send", unknown, number, number, RegExp][] = [
    ["invalid recipient", "send", { recipient: "not-an-address" }, 400, MAIL_CODES.invalidAddress, /recipient/],
    ["invalid batch address", "batch_send", { recipients: ["ok@example.org", "x@@y"] }, 400, MAIL_CODES.invalidAddress, /recipients\.1/],
    ["invalid addresser", "send", { recipient: "a@example.org", addresser: "me" }, 400, MAIL_CODES.invalidAddress, /addresser/],
    ["empty batch", "batch_send", { recipients: [] }, 400, MAIL_CODES.batchEmpty, /at least one/],
    ["unknown field", "send", { recipient: "a@example.org", cc: "b@example.org" }, 400, MAIL_CODES.unknownField, /cc/],
    ["missing recipient", "send", { attribs: {} }, 400, MAIL_CODES.invalidRequest, /recipient/],
    ["bad attrib value", "send", { recipient: "a@example.org", attribs: { x: { nested: 1 } } }, 400, MAIL_CODES.invalidRequest, /attribs\.x/],
    ["malformed JSON", "send", "{\"recipient\":", 400, MAIL_CODES.invalidRequest, /not valid JSON/],
    ["unknown template", "send", { recipient: "a@example.org", template: "nope" }, 422, MAIL_CODES.unknownTemplate, /nope/],
    ["missing attributes", "send", { recipient: "a@example.org", template: "alert", attribs: { name: "x" } }, 422, MAIL_CODES.templateAttributeMissing, /`message`, `severity`, `title`/],
  ];
  for (const [name, path, body, http, code, msg] of cases) {
    it(`${name} → ${http} with code ${code}`, async () => {
      const a = await post(service.url, path, body);
      expect(a.status).toBe(http);
      expect(a.body.success).toBe(false);
      expect(a.body.code).toBe(code);
      expect(a.body.msg).toMatch(msg);
    });
  }

  it("refuses a batch over the maximum", async () => {
    const recipients = Array.from({ length: MAX_BATCH_RECIPIENTS + 1 }, (_, i) => `r${i}@example.org`);
    const a = await post(service.url, "batch_send", { recipients });
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ success: false, code: MAIL_CODES.batchTooLarge });
    expect(a.body.msg).toMatch(/at most 10000/);
  });

  it("refuses a body over max_body_bytes with 413", async () => {
    const a = await post(service.url, "send", { recipient: "a@example.org", attribs: { text: "x".repeat(5 * 1024 * 1024) } });
    expect(a.status).toBe(413);
    expect(a.body).toMatchObject({ success: false, code: MAIL_CODES.bodyTooLarge });
  });

  it("refuses a missing or wrong X-API-Key with 401 in the envelope", async () => {
    for (const key of ["", "wrong-key-xxxx"]) {
      const a = await post(service.url, "send", { recipient: "a@example.org" }, { "x-api-key": key });
      expect(a.status).toBe(401);
      expect(a.body).toMatchObject({ success: false, code: MAIL_CODES.unauthorized, data: null });
    }
    expect((await status(service.url, "abc", { "x-api-key": "nope" })).status).toBe(401);
  });

  it("answers unknown ids, paths and content types in the envelope", async () => {
    expect((await status(service.url, "0000unknown")).body).toMatchObject({ success: false, code: MAIL_CODES.notFound });
    const res = await fetch(`${service.url}/api/batch_mail/api/send`, { method: "POST", headers: { "x-api-key": "test-key-0001", "content-type": "text/plain" }, body: "{}" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ success: false, code: 1415 });
    const other = await fetch(`${service.url}/nowhere`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ success: false, code: MAIL_CODES.notFound });
  });
});

describe("file engine and startup rules", () => {
  it("writes each message as an .eml file to the outbox", async () => {
    const d = await mkdtemp(join(tmpdir(), "calibkit-mail-file-"));
    try {
      const svc = await startMailService({ dataDir: d, log: () => {} });
      const a = await post(svc.url, "batch_send", { recipients: ["x@example.org", "y@example.org"], attribs: { subject: "Report", text: "ok" } });
      await waitFor(async () => (await status(svc.url, a.body.data.api_log_id)).body.data.status === "completed");
      await svc.close();
      const files = (await readdir(join(d, "outbox"))).sort();
      expect(files).toEqual(a.body.data.message_ids.map((m: string) => `${m}.eml`).sort());
      const eml = await readFile(join(d, "outbox", files[0]!), "utf8");
      expect(eml).toMatch(/^Subject: Report$/m);
      expect(eml).toContain(`Message-ID: <${files[0]!.replace(/\.eml$/, "")}>`);
    } finally {
      await rm(d, { recursive: true, force: true });
    }
  });

  it("refuses a second service on the same data folder", async () => {
    await expect(startMailService({ dataDir: dir, log: () => {} })).rejects.toThrow(/in use by another calibkit mail-serve \(process \d+ on /);
  });

  it("refuses to bind a non-loopback address without keys", async () => {
    await expect(startMailService({ host: "0.0.0.0", dataDir: dir, log: () => {} })).rejects.toThrow(/without API keys/);
  });
});
