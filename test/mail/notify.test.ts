// The notifier: each alert mailed exactly once across restarts and an interrupted run, new alerts
// picked up, the audit mailed once; in-process and as `calibkit notify` processes.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvaluationClient, MailClient } from "../../src/client/index.js";
import { mailConfigOf, NotifyCursor, notifyOnce, startMailService, type MailService, type SendNotification } from "../../src/mail/index.js";
import { alert, startFakeEvaluationService, type FakeEvaluationService } from "./fakeEvaluationService.js";
import { runToEnd } from "./processes.js";
import { startSmtpSink, waitFor, type SmtpSink } from "./smtpSink.js";

const PROFILE = "support-triage";
let dir: string;
let sink: SmtpSink;
let mail: MailService;
let evaluation: FakeEvaluationService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "calibkit-notify-"));
  sink = await startSmtpSink();
  mail = await startMailService({
    dataDir: join(dir, "mail"),
    config: { ...mailConfigOf({ keys: ["notify-key-0001"] }), engine: "smtp", smtpUrl: sink.url },
    log: () => {},
  });
  evaluation = await startFakeEvaluationService(PROFILE);
});
afterAll(async () => {
  await mail?.close();
  await sink?.close();
  await evaluation?.close();
  await rm(dir, { recursive: true, force: true });
});

const mailsTo = (addr: string) => sink.received.filter((m) => m.to.includes(addr));

describe("notifyOnce", () => {
  it("mails each alert once, also when a run dies between the send and the cursor update", async () => {
    evaluation.alerts.set("m1", [alert("2026-11-20T10:00:00.000Z"), alert("2026-11-20T11:00:00.000Z", 40)]);
    evaluation.alerts.set("m2", []);
    const source = new EvaluationClient({ baseUrl: evaluation.url });
    const client = new MailClient({ baseUrl: mail.url, apiKey: "notify-key-0001" });
    const realSend: SendNotification = async (recipients, message, key) => {
      const result = await client.batchSend({ recipients: [...recipients], attribs: message.attribs }, { idempotencyKey: key });
      return { apiLogId: result.api_log_id, replayed: result.idempotent_replay === true };
    };
    const state = join(dir, "inproc.json");
    const to = ["oncall@example.org", "lead@example.org"];

    // The first run mails the first alert and "crashes" before recording that it did.
    let sends = 0;
    const crashing: SendNotification = async (...a) => {
      const id = await realSend(...a);
      if (++sends === 1) throw new Error("simulated crash after the send");
      return id;
    };
    await expect(notifyOnce({ source, send: crashing, cursor: await NotifyCursor.load(state), profile: PROFILE, to })).rejects.toThrow(/simulated/);
    const cursor = JSON.parse(await readFile(state, "utf8"));
    expect(Object.values(cursor.entries).map((e: any) => e.state)).toEqual(["pending"]);

    // The restarted run resends the pending alert with the same Idempotency-Key: the service dedupes it.
    const second = await notifyOnce({ source, send: realSend, cursor: await NotifyCursor.load(state), profile: PROFILE, to });
    expect(second.mailed.map((m) => m.resumed)).toEqual([true, false]);
    // …and says so: the first was mailed by the crashed run, only the second now.
    expect(second.mailed.map((m) => m.replayed)).toEqual([true, false]);
    const third = await notifyOnce({ source, send: realSend, cursor: await NotifyCursor.load(state), profile: PROFILE, to });
    expect(third).toMatchObject({ mailed: [], alreadyMailed: 2, alerts: 2 });

    await waitFor(() => mailsTo("lead@example.org").length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    for (const addr of to) {
      const got = mailsTo(addr);
      expect(got).toHaveLength(2);
      expect(got.map((m) => m.headers.subject)).toEqual([
        `[calibkit] high coverage alert on profile ${PROFILE}`,
        `[calibkit] high coverage alert on profile ${PROFILE}`,
      ]);
      expect(got.some((m) => m.body.includes("e-value 40"))).toBe(true);
    }
    // A new alert of another monitor is picked up on the next run, and only it.
    evaluation.alerts.set("m2", [alert("2026-11-21T09:00:00.000Z", 99)]);
    const fourth = await notifyOnce({ source, send: realSend, cursor: await NotifyCursor.load(state), profile: PROFILE, to });
    expect(fourth.mailed).toHaveLength(1);
    expect(fourth.alreadyMailed).toBe(2);
  });
});

describe("calibkit notify", () => {
  it("mails new alerts once across restarts, and --audit the latest audit once", async () => {
    evaluation.alerts.clear();
    evaluation.alerts.set("cov-1", [alert("2026-11-22T08:00:00.000Z", 77)]);
    evaluation.lastAudit = { result: "fail", realized_coverage: 0.81, ci: [0.76, 0.86], sample: 200, target: 0.9, date: "2026-11-22T07:00:00.000Z" };
    const state = join(dir, "cli-state.json");
    const args = ["notify", "--service", evaluation.url, "--profile", PROFILE, "--to", "cli@example.org", "--mail", `${mail.url}/api`, "--state", state, "--audit"];
    const env = { CALIBKIT_MAIL_KEY: "notify-key-0001" };

    const first = await runToEnd(args, env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/1 alert\(s\) on support-triage, 1 mailed now, 0 mailed before; audit: mailed/);
    const again = await runToEnd(args, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/1 mailed before; audit: already mailed/);

    await waitFor(() => mailsTo("cli@example.org").length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    const got = mailsTo("cli@example.org");
    expect(got.map((m) => m.headers.subject).sort()).toEqual([
      `[calibkit] audit fail for profile ${PROFILE}`,
      `[calibkit] high coverage alert on profile ${PROFILE}`,
    ]);
    expect(got.find((m) => m.headers.subject!.includes("audit"))!.body).toContain("realized coverage: 0.81");
  });

  it("explains bad arguments", async () => {
    const r = await runToEnd(["notify", "--service", evaluation.url, "--profile", PROFILE, "--to", "nope", "--mail", mail.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--to must list e-mail addresses; not one: nope/);
  });
});
