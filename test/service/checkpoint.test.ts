// A start reads a profile's checkpoint and the events after it, never its history: with every event before the
// checkpoint made unreadable in the database, a restarted service still serves the same answers, profile view,
// monitor state and idempotent replies, on SQLite and on a real PostgreSQL. Without the unreadable events,
// the examples before the checkpoint are read back when a route needs them.
import Database from "better-sqlite3";
import pg from "pg";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../src/service/index.js";
import { openStore, SQLITE_FILE } from "../../src/store/index.js";
import { SCHEMA_VERSION } from "../../src/store/schema.js";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { CLIENT_BACKEND, lcg, setExample, tempDir } from "./helpers.js";

let postgres: PostgresServer;
beforeAll(() => {
  postgres = startPostgres();
}, 60_000);
afterAll(() => postgres?.destroy());

// One x-request-id for every call: it seeds randomized (APS) answers, which are compared across requests.
async function call(service: RunningService, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${service.url}/api/v1${path}`, { method, headers: { "content-type": "application/json", "x-request-id": "checkpoint-seed", ...headers }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const parsed = (await res.json()) as Record<string, any>;
  delete parsed.request_id;
  return { status: res.status, body: parsed };
}

const names = ["A", "B", "C", "D"];
const queries = Object.fromEntries(["LAC", "APS"].flatMap((method) => [0.1, 0.3].map((alpha, k) => {
  const raw = names.map((_, j) => 1 + ((j * 7 + k * 3) % 5));
  const sum = raw.reduce((a, b) => a + b, 0);
  return [`${method}${k}`, { type: "set", instructions: "Pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "cp", method, alpha, evidence: { option_probabilities: Object.fromEntries(names.map((n, j) => [n, raw[j]! / sum])) } }];
})));

/** Answers once the profile is read (a 503 while it is being read after a start). */
async function answers(service: RunningService) {
  for (;;) {
    const res = await call(service, "POST", "/evaluate", { context: "x", backend: CLIENT_BACKEND, queries });
    if (res.status !== 503) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(["sqlite", "postgres"] as const)("checkpoints on %s", (engine) => {
  it("restarts from the checkpoint without reading the events before it, and reads the examples back when needed", async () => {
    const dataDir = await tempDir();
    const store = engine === "postgres" ? await postgres.database(`checkpoint_${Date.now()}`) : undefined;
    const start = () => startService({ dataDir, store, checkpointEvery: 100, log: () => undefined });
    const rand = lcg(7);
    let service = await start();
    expect((await call(service, "POST", "/calibration-profiles", { name: "cp", backend: CLIENT_BACKEND, alpha: 0.1, method: "APS" })).status).toBe(201);
    expect((await call(service, "POST", "/calibration-profiles/cp/monitors", { type: "coverage", target: 0.1, false_alarm_rate: 0.01 })).status).toBe(201);
    for (let b = 0; b < 6; b++) {
      const batch = { examples: Array.from({ length: 60 }, (_, i) => setExample(rand, b * 60 + i)) };
      expect((await call(service, "POST", "/calibration-profiles/cp/examples", batch, { "idempotency-key": `batch-${b}` })).status).toBe(200);
    }
    const before = await answers(service);
    expect(before.status).toBe(200);
    const profile = (await call(service, "GET", "/calibration-profiles/cp")).body;
    const monitors = (await call(service, "GET", "/calibration-profiles/cp/monitors")).body;
    const listed = (await call(service, "GET", "/calibration-profiles/cp/examples?limit=10000")).body;
    await service.close();

    // Checkpoints were written at 120, 240 and 360 examples (each at least 100 more than the last).
    const opened = await openStore({ url: store, dataDir });
    const checkpoint = await opened.profiles.checkpoint("cp");
    await opened.close();
    expect(checkpoint?.n).toBe(360);

    // A restart with every example event intact reads the examples before the checkpoint back for the listing.
    service = await start();
    expect(await answers(service)).toEqual(before);
    expect((await call(service, "GET", "/calibration-profiles/cp/examples?limit=10000")).body).toEqual(listed);
    await service.close();

    // Every event up to the checkpoint made unreadable: a start that replayed history would fail on it.
    const garbage = `UPDATE profile_events SET record = '{"unreadable' WHERE profile = 'cp' AND seq <= ${checkpoint!.seq}`;
    if (engine === "sqlite") {
      const db = new Database(join(dataDir, SQLITE_FILE));
      expect(db.prepare(garbage).run().changes).toBe(checkpoint!.seq);
      db.close();
    } else {
      const client = new pg.Client({ connectionString: store });
      await client.connect();
      expect((await client.query(garbage)).rowCount).toBe(checkpoint!.seq);
      await client.end();
    }
    service = await start();
    expect(await answers(service)).toEqual(before);
    expect((await call(service, "GET", "/calibration-profiles/cp")).body).toEqual(profile);
    expect((await call(service, "GET", "/calibration-profiles/cp/monitors")).body).toEqual(monitors);
    const first = lcg(7);
    const replay = await call(service, "POST", "/calibration-profiles/cp/examples", { examples: Array.from({ length: 60 }, (_, i) => setExample(first, i)) }, { "idempotency-key": "batch-0" });
    expect(replay.status).toBe(200);
    expect(replay.body.n).toBe(60);
    // New batches extend the restored pools and monitor states.
    const more = await call(service, "POST", "/calibration-profiles/cp/examples", { examples: Array.from({ length: 60 }, (_, i) => setExample(rand, 360 + i)) });
    expect(more.body.n).toBe(420);
    // The monitor covered the 60 new examples against the restored calibration, without the older examples.
    const after = (await call(service, "GET", "/calibration-profiles/cp/monitors")).body;
    expect(after.monitors[0].n - monitors.monitors[0].n).toBe(60);
    expect((await answers(service)).status).toBe(200);
    // A route that needs the examples before the checkpoint reports what it could not read, and the service goes on.
    expect((await call(service, "GET", "/calibration-profiles/cp/examples")).status).toBeGreaterThanOrEqual(500);
    expect((await call(service, "GET", "/calibration-profiles/cp")).body.n).toBe(420);
    await service.close();
  }, 120_000);
});

it("migrates a store of schema version 1: the checkpoints table is added, the profiles are read from their events", async () => {
  const dataDir = await tempDir();
  const start = () => startService({ dataDir, checkpointEvery: 100, log: () => undefined });
  const rand = lcg(3);
  let service = await start();
  await call(service, "POST", "/calibration-profiles", { name: "cp", backend: CLIENT_BACKEND, alpha: 0.1 });
  await call(service, "POST", "/calibration-profiles/cp/examples", { examples: Array.from({ length: 50 }, (_, i) => setExample(rand, i)) });
  const before = await answers(service);
  await service.close();
  const db = new Database(join(dataDir, SQLITE_FILE));
  db.exec(`DROP TABLE profile_checkpoints; UPDATE calibkit_schema SET version = 1`);
  db.close();
  service = await start();
  expect(await answers(service)).toEqual(before);
  await call(service, "POST", "/calibration-profiles/cp/examples", { examples: Array.from({ length: 100 }, (_, i) => setExample(rand, 50 + i)) });
  await service.close();
  const check = new Database(join(dataDir, SQLITE_FILE));
  expect(check.prepare(`SELECT version FROM calibkit_schema`).get()).toEqual({ version: SCHEMA_VERSION });
  expect(check.prepare(`SELECT n FROM profile_checkpoints WHERE profile = 'cp'`).get()).toEqual({ n: 150 });
  check.close();
}, 60_000);

it("migrates a PostgreSQL store of schema version 2: checkpoints stored uncompressed, events compressed with lz4", async () => {
  const store = await postgres.database(`storage_${Date.now()}`);
  const client = new pg.Client({ connectionString: store });
  await client.connect();
  const storage = async () => (await client.query(
    `SELECT attname, attstorage, attcompression FROM pg_attribute WHERE (attrelid, attname) IN (('profile_checkpoints'::regclass, 'data'), ('profile_events'::regclass, 'record')) ORDER BY attname`)).rows;
  try {
    let opened = await openStore({ url: store, dataDir: await tempDir() });
    await opened.close();
    // lz4 where the server has it (PostgreSQL 14+ built with it, as Debian's are); pglz ('' = the default) otherwise.
    const [{ lz4 }] = (await client.query(`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`)).rows;
    const migrated = [{ attname: "data", attstorage: "e", attcompression: "" }, { attname: "record", attstorage: "x", attcompression: lz4 ? "l" : "" }];
    expect(await storage()).toEqual(migrated);
    // What version 2 made: the default storage of both; a start raises the version and sets them.
    await client.query(`ALTER TABLE profile_checkpoints ALTER COLUMN data SET STORAGE EXTENDED; ALTER TABLE profile_events ALTER COLUMN record SET COMPRESSION DEFAULT; UPDATE calibkit_schema SET version = 2`);
    expect((await storage()).map((c) => c.attstorage + c.attcompression)).toEqual(["x", "x"]);
    opened = await openStore({ url: store, dataDir: await tempDir() });
    await opened.close();
    expect(await storage()).toEqual(migrated);
    expect((await client.query(`SELECT version FROM calibkit_schema`)).rows).toEqual([{ version: SCHEMA_VERSION }]);
  } finally {
    await client.end();
  }
}, 60_000);
