// `calibkit mail-serve` as a real process: a 1,000-recipient batch is delivered in full, and a SIGKILL
// in the middle of delivery loses nothing and re-sends at most the messages that were in flight
// (the at-least-once rule of docs/mail.md), which the sink recognizes by their Message-ID.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { post, status } from "./mailHttp.js";
import { serve } from "./processes.js";
import { startSmtpSink, waitFor, type SmtpSink } from "./smtpSink.js";

const CONCURRENCY = 5;
let dir: string;
let sink: SmtpSink;
let configFile: string;
let postgres: PostgresServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "calibkit-mail-kill-"));
  // A short pause before each 250 keeps deliveries in flight when the kill lands.
  sink = await startSmtpSink({ ackDelayMs: 2 });
  configFile = join(dir, "mail.json");
  await writeFile(configFile, JSON.stringify({ keys: ["test-key-0001"], delivery: { concurrency: CONCURRENCY } }));
  postgres = startPostgres();
}, 60_000);
afterAll(async () => {
  postgres?.destroy();
  await sink?.close();
  await rm(dir, { recursive: true, force: true });
});

it("delivers a 1,000-recipient batch across a SIGKILL without loss, duplicates bounded by in-flight messages (SQLite)", () => killRound([]), 60_000);
it("delivers a 1,000-recipient batch across a SIGKILL without loss, duplicates bounded by in-flight messages (PostgreSQL)", async () =>
  killRound(["--store", await postgres.database("mail")]), 60_000);

async function killRound(storeArgs: string[]) {
  sink.received.length = 0;
  const args = ["mail-serve", "--port", "0", "--data", join(dir, `data${storeArgs.length}`), "--engine", "smtp", "--smtp", sink.url, "--config", configFile, ...storeArgs];
  const first = await serve(args);
  const recipients = Array.from({ length: 1000 }, (_, i) => `user${i}@example.org`);
  const a = await post(first.url, "batch_send", { recipients, attribs: { subject: "Audit report", text: "All good" } });
  expect(a.status).toBe(200);
  expect(a.body.data).toMatchObject({ accepted: true, injection_status: "queued", delivery_status: "pending" });
  const ids: string[] = a.body.data.message_ids;
  expect(new Set(ids).size).toBe(1000);

  await waitFor(() => sink.received.length >= 150, 20_000, "150 deliveries before the kill");
  first.child.kill("SIGKILL");
  expect(await first.exited).toBe("SIGKILL");
  const atKill = sink.received.length;
  expect(atKill).toBeLessThan(1000);

  const second = await serve(args);
  try {
    await waitFor(async () => (await status(second.url, a.body.data.api_log_id)).body.data?.status === "completed", 30_000, "completion after restart");
    const s = (await status(second.url, a.body.data.api_log_id)).body.data;
    expect(s).toMatchObject({ injection_status: "injected", delivery_status: "delivered" });
    expect(s.counts.delivered).toBe(1000);

    const unique = new Set(sink.received.map((m) => m.messageId));
    expect([...unique].sort()).toEqual([...ids].sort());
    const extra = sink.received.length - unique.size;
    expect(extra).toBeLessThanOrEqual(CONCURRENCY);
    for (const m of sink.received) {
      const i = ids.indexOf(m.messageId);
      expect(m.to).toEqual([recipients[i]]);
    }
    expect(second.stderr()).toMatch(/resuming \d+ undelivered/);
  } finally {
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }
}
