// The mail service's GET /metrics against a real SMTP server on loopback: the Prometheus text format read back
// by a Prometheus parser — the queue's depth, every message's delivery state (outcomes), requests by route.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailConfigOf, startMailService, type MailService } from "../../src/mail/index.js";
import { post, status } from "./mailHttp.js";
import { startSmtpSink, waitFor, type SmtpSink } from "./smtpSink.js";

let sink: SmtpSink;
let service: MailService;
let dir: string;

beforeAll(async () => {
  sink = await startSmtpSink({ deferTimes: 1 });
  dir = await mkdtemp(join(tmpdir(), "calibkit-mail-metrics-"));
  const config = { ...mailConfigOf({ keys: ["test-key-0001"], default_addresser: "noreply@calibkit.example", delivery: { max_attempts: 3, backoff_base_ms: 50, backoff_max_ms: 200 } }), engine: "smtp" as const };
  service = await startMailService({ dataDir: dir, config: { ...config, smtpUrl: sink.url }, log: () => {} });
});
afterAll(async () => {
  await service?.close();
  await sink?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("mail-serve GET /metrics", () => {
  it("reports delivery outcomes and the queue depth, behind the key", async () => {
    expect((await fetch(`${service.url}/metrics`)).status).toBe(401);
    const sent = await post(service.url, "batch_send", { recipients: ["ok@example.org", "bounce@example.org", "other@example.org"], attribs: { subject: "s", text: "t" } });
    expect(sent.status).toBe(200);
    const id = sent.body.data.api_log_id as string;
    await waitFor(async () => (await status(service.url, id)).body.data.counts.pending === 0 && (await status(service.url, id)).body.data.counts.deferred === 0);
    const scraped = await fetch(`${service.url}/metrics`, { headers: { "x-api-key": "test-key-0001" } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = new Map(parsePrometheusTextFormat(await scraped.text()).map((f) => [f.name, f]));
    const states = Object.fromEntries(families.get("calibkit_mail_messages")!.metrics.map((m) => [m.labels!.state, Number(m.value)]));
    expect(states).toEqual({ pending: 0, deferred: 0, delivered: 2, bounced: 1, failed: 0 });
    expect(Number(families.get("calibkit_mail_queue_depth")!.metrics[0]!.value)).toBe(0);
    const requests = families.get("calibkit_mail_http_requests_total")!.metrics;
    expect(requests.find((m) => m.labels?.route === "/api/batch_mail/api/batch_send" && m.labels.status === "200")?.value).toBe("1");
    expect(requests.some((m) => m.labels?.route === "/api/batch_mail/api/status/:api_log_id")).toBe(true);
    expect(requests.find((m) => m.labels?.route === "/metrics" && m.labels.status === "401")?.value).toBe("1");
  });
});
