// Acceptance: `calibkit notify` mails an alert raised by a real monitor of `calibkit serve` exactly once,
// across a restart of the notifier and of the evaluation service, to a real SMTP server on loopback.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EvaluationClient } from "../../src/client/index.js";
import { mailConfigOf, startMailService, type MailService } from "../../src/mail/index.js";
import { runToEnd, serve, type Served } from "./processes.js";
import { startSmtpSink, waitFor, type SmtpSink } from "./smtpSink.js";

const OPTIONS = ["A", "B", "C", "D"] as const;
const BACKEND = { provider: "client_evidence", name: "local-model", access_level: "L1" } as const;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

/** A set example whose evidence puts most mass on the right label 80% of the time. */
function example(rand: () => number, i: number) {
  const label = OPTIONS[Math.floor(rand() * 4)]!;
  const top = rand() < 0.8 ? label : OPTIONS[Math.floor(rand() * 4)]!;
  const raw = OPTIONS.map((o) => (o === top ? 2 + rand() * 3 : rand()));
  const sum = raw.reduce((a, b) => a + b, 0);
  return { context: `item ${i}`, label, metadata: { evidence: { option_probabilities: Object.fromEntries(OPTIONS.map((o, j) => [o, raw[j]! / sum])) } } };
}

let dir: string;
let sink: SmtpSink;
let mail: MailService;
let evaluation: Served | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "calibkit-notify-service-"));
  sink = await startSmtpSink();
  mail = await startMailService({ dataDir: join(dir, "mail"), config: { ...mailConfigOf({ keys: ["mail-key-00001"] }), engine: "smtp", smtpUrl: sink.url }, log: () => {} });
});
afterAll(async () => {
  if (evaluation) {
    evaluation.child.kill("SIGTERM");
    await evaluation.exited;
  }
  await mail?.close();
  await sink?.close();
  await rm(dir, { recursive: true, force: true });
});

it("mails a real monitor's alert exactly once across restarts", async () => {
  const data = join(dir, "service");
  evaluation = await serve(["serve", "--port", "0", "--data", data]);
  const client = new EvaluationClient({ baseUrl: `${evaluation.url}/api/v1`, retry: false });
  const rand = lcg(7);
  await client.createProfile({ name: "cls", backend: { ...BACKEND, fingerprint: "sha256:aaaa0000" } as never, method: "LAC", alpha: 0.1, strict_fingerprint: false });
  expect((await client.addExamples("cls", Array.from({ length: 300 }, (_, i) => example(rand, i)))).status).toBe("serving");
  const audit = await client.audit("cls", Array.from({ length: 60 }, (_, i) => example(rand, 1000 + i)));
  const monitor = await client.createMonitor("cls", { type: "coverage", false_alarm_rate: 0.05 });
  // Confidently wrong evidence: every example is missed, and the e-process crosses 1/0.05.
  const drifted = Array.from({ length: 80 }, (_, i) => ({ context: `drift ${i}`, label: "D", metadata: { evidence: { option_probabilities: { A: 0.97, B: 0.01, C: 0.01, D: 0.01 } } } }));
  await client.addExamples("cls", drifted);
  const alerts = (await client.listAlerts("cls", monitor.id)).alerts;
  expect(alerts).toHaveLength(1);

  const state = join(dir, "notify.json");
  const notify = (serviceUrl: string) =>
    runToEnd(
      ["notify", "--service", `${serviceUrl}/api/v1`, "--profile", "cls", "--to", "oncall@example.org", "--mail", mail.url, "--state", state, "--audit"],
      { CALIBKIT_MAIL_KEY: "mail-key-00001" },
    );

  const first = await notify(evaluation.url);
  expect(first.stderr).toBe("");
  expect(first.stdout).toMatch(/1 alert\(s\) on cls, 1 mailed now, 0 mailed before; audit: mailed/);

  // Restart the evaluation service on the same data: the alert is still there, and is not mailed again.
  evaluation.child.kill("SIGTERM");
  expect(await evaluation.exited).toBe(0);
  evaluation = await serve(["serve", "--port", "0", "--data", data]);
  const second = await notify(evaluation.url);
  expect(second.code).toBe(0);
  expect(second.stdout).toMatch(/1 alert\(s\) on cls, 0 mailed now, 1 mailed before; audit: already mailed/);

  await waitFor(() => sink.received.length >= 2);
  await new Promise((r) => setTimeout(r, 300));
  const got = sink.received.filter((m) => m.to.includes("oncall@example.org"));
  const alertMails = got.filter((m) => m.headers.subject === "[calibkit] critical coverage_drift alert on profile cls");
  expect(alertMails).toHaveLength(1);
  expect(alertMails[0]!.body).toContain(alerts[0]!.message);
  expect(alertMails[0]!.body).toContain(`monitor:          ${monitor.id}`);
  const auditMails = got.filter((m) => m.headers.subject === `[calibkit] audit ${audit.result} for profile cls`);
  expect(auditMails).toHaveLength(1);
  expect(got).toHaveLength(2);
}, 60_000);
