// `calibkit mail-serve --import OLD_DIR`: a journal written by the mail service before the store (a fixture
// made with that code, fixtures/old-journal/README.md) is read into the store once, on both engines: every
// send answers its old status, unfinished messages are delivered, Idempotency-Keys still name their sends, and
// a second import changes nothing.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { post, status } from "./mailHttp.js";
import { runToEnd, serve } from "./processes.js";
import { waitFor } from "./smtpSink.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/old-journal/", import.meta.url));
interface Expected {
  sends: { name: string; kind: "send" | "batch_send"; body: unknown; key?: string; id: string }[];
  statuses: Record<string, { status: string; message_ids: string[]; messages: { attempts: number }[] } & Record<string, unknown>>;
}

let dir: string;
let configFile: string;
let expected: Expected;
let postgres: PostgresServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "calibkit-mail-import-"));
  configFile = join(dir, "mail.json");
  await writeFile(configFile, JSON.stringify({ keys: ["test-key-0001"], default_addresser: "noreply@calibkit.example" }));
  expected = JSON.parse(await readFile(join(FIXTURE, "expected.json"), "utf8")) as Expected;
  postgres = startPostgres();
}, 60_000);
afterAll(async () => {
  postgres?.destroy();
  await rm(dir, { recursive: true, force: true });
});

const emlName = (messageId: string) => `${messageId.replace(/[^A-Za-z0-9._@-]/g, "_")}.eml`;

describe.each([["SQLite", false], ["PostgreSQL", true]] as const)("mail-serve --import on %s", (engine, usePostgres) => {
  it("reads the old journal into the store once: statuses, deliveries of what was unfinished, Idempotency-Keys", async () => {
    const data = join(dir, `data-${engine}`);
    const storeArgs = usePostgres ? ["--store", await postgres.database("mail_import")] : [];
    const args = ["mail-serve", "--port", "0", "--data", data, "--config", configFile, "--import", FIXTURE, ...storeArgs];
    const unfinished = expected.sends.filter((s) => expected.statuses[s.id]!.status === "queued");
    expect(unfinished.map((s) => s.name)).toEqual(["deferred", "pending at a kill"]);

    const first = await serve(args);
    try {
      expect(first.stderr()).toMatch(/mail import: .*journal\.jsonl: 7 sends \(10 messages: [^)]*\) imported; a last line cut short by a kill .* was dropped/);
      // Finished sends answer exactly what the old service answered.
      for (const send of expected.sends.filter((s) => !unfinished.includes(s))) {
        expect((await status(first.url, send.id)).body.data).toEqual(expected.statuses[send.id]);
      }
      // Unfinished ones are delivered by this service (the file engine's outbox), one attempt more.
      for (const send of unfinished) {
        await waitFor(async () => (await status(first.url, send.id)).body.data.status === "completed", 20_000, `${send.name} delivered`);
        const now = (await status(first.url, send.id)).body.data;
        const old = expected.statuses[send.id]!;
        expect(now).toMatchObject({ delivery_status: "delivered", accepted_at: old.accepted_at, message_ids: old.message_ids });
        expect(now.messages[0].attempts).toBe(old.messages[0]!.attempts + 1);
      }
      const outbox = await readdir(join(data, "outbox"));
      expect(outbox.sort()).toEqual(unfinished.map((s) => emlName(expected.statuses[s.id]!.message_ids[0]!)).sort());
      // An imported Idempotency-Key still names its send: the same request is a replay, another is a conflict.
      for (const send of expected.sends.filter((s) => s.key)) {
        const replay = await post(first.url, send.kind, send.body, { "idempotency-key": send.key! });
        expect(replay.body.data.api_log_id).toBe(send.id);
        const other = await post(first.url, "send", { recipient: "someone@example.org" }, { "idempotency-key": send.key! });
        expect(other.status).toBe(409);
      }
    } finally {
      first.child.kill("SIGTERM");
      await first.exited;
    }

    // Importing again adds nothing and resets nothing: the delivered messages stay delivered, sent once.
    const second = await serve(args);
    try {
      expect(second.stderr()).toMatch(/mail import: .*: 0 sends \(0 messages\) imported; 7 already in the store, left as they are/);
      for (const send of unfinished) {
        const now = (await status(second.url, send.id)).body.data;
        expect(now).toMatchObject({ status: "completed", delivery_status: "delivered" });
        expect(now.messages[0].attempts).toBe(expected.statuses[send.id]!.messages[0]!.attempts + 1);
      }
      expect(await readdir(join(data, "outbox"))).toHaveLength(unfinished.length);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  }, 60_000);
});

it("refuses a journal damaged before its end, naming the line, and imports nothing", async () => {
  const old = join(dir, "damaged");
  await cp(FIXTURE, old, { recursive: true });
  const lines = (await readFile(join(old, "journal.jsonl"), "utf8")).split("\n");
  lines[5] = lines[5]!.slice(0, 40); // a damaged line in the middle, with records after it
  await writeFile(join(old, "journal.jsonl"), lines.join("\n"));
  const data = join(dir, "data-damaged");
  const run = await runToEnd(["mail-serve", "--port", "0", "--data", data, "--config", configFile, "--import", old]);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/journal\.jsonl is damaged at line 6 .*nothing was imported/);
  const plain = await serve(["mail-serve", "--port", "0", "--data", data, "--config", configFile]);
  try {
    expect((await status(plain.url, expected.sends[0]!.id)).status).toBe(404);
  } finally {
    plain.child.kill("SIGTERM");
    await plain.exited;
  }

  const empty = await runToEnd(["mail-serve", "--port", "0", "--data", data, "--config", configFile, "--import", join(dir, "nowhere")]);
  expect(empty.code).toBe(1);
  expect(empty.stderr).toMatch(/--import .*nowhere: no journal\.jsonl there/);
}, 60_000);
