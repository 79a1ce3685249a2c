// A start serves a profile from its checkpoint alone even when no query ever ran before the checkpoint was
// written: the pools the examples feed are made as they arrive, so the checkpoint holds them. With every event
// before the checkpoint made unreadable, the first set queries after a start answer 200, with the answers of a
// copy of the store without its checkpoint, which replays every event (SQLite and a real PostgreSQL). The
// calibrations built by those queries join the checkpoint, and a start restores them with the same answers.
import Database from "better-sqlite3";
import pg from "pg";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../src/service/index.js";
import { openStore, SQLITE_FILE } from "../../src/store/index.js";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { CLIENT_BACKEND, lcg, setExample, tempDir } from "./helpers.js";

let postgres: PostgresServer;
beforeAll(() => {
  postgres = startPostgres();
}, 60_000);
afterAll(() => postgres?.destroy());

/** One request; a 529 (the loop busy with a large batch just before, on a loaded machine) is retried as its retry-after says. */
async function call(service: RunningService, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
  for (let tries = 0; ; tries++) {
    const res = await once(service, method, path, body);
    if (res.status !== 529 || tries >= 20) return res;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

// One x-request-id for every call: it seeds randomized (APS) answers, which are compared across requests.
async function once(service: RunningService, method: string, path: string, body?: unknown) {
  const res = await fetch(`${service.url}/api/v1${path}`, { method, headers: { "content-type": "application/json", "x-request-id": "startup-seed" }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const parsed = (await res.json()) as Record<string, any>;
  delete parsed.request_id;
  return { status: res.status, body: parsed };
}

const queries = Object.fromEntries(["LAC", "APS"].map((method, k) => [method, {
  type: "set", instructions: "Pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "cp", method,
  evidence: { option_probabilities: { A: 0.4 - k * 0.1, B: 0.3, C: 0.2, D: 0.1 + k * 0.1 } },
}]));

async function answers(service: RunningService) {
  for (let tries = 0; ; tries++) {
    const res = await call(service, "POST", "/evaluate", { context: "x", backend: CLIENT_BACKEND, queries });
    if (res.status !== 503 || tries > 200) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs `sql` on the store; resolves with the rows it changed. */
async function exec(engine: "sqlite" | "postgres", dataDir: string, store: string | undefined, sql: string): Promise<number> {
  if (engine === "sqlite") {
    const db = new Database(join(dataDir, SQLITE_FILE));
    const changed = db.prepare(sql).run().changes;
    db.close();
    return changed;
  }
  const client = new pg.Client({ connectionString: store });
  await client.connect();
  const changed = (await client.query(sql)).rowCount ?? 0;
  await client.end();
  return changed;
}

describe.each(["sqlite", "postgres"] as const)("a start on %s", (engine) => {
  it("serves set queries from a checkpoint written before any query ran, reading no event before it", async () => {
    const dataDir = await tempDir();
    const name = `startup_${Date.now()}`;
    const store = engine === "postgres" ? await postgres.database(name) : undefined;
    const start = (dir: string, url: string | undefined) => startService({ dataDir: dir, store: url, checkpointEvery: 1000, log: () => undefined });
    const rand = lcg(11);
    const service = await start(dataDir, store);
    expect((await call(service, "POST", "/calibration-profiles", { name: "cp", backend: CLIENT_BACKEND, alpha: 0.1 })).status).toBe(201);
    // Past the size where Venn–Abers is rebuilt on a prefix (rebuilds.ts), so that path is restored too.
    for (let b = 0; b < 5; b++) {
      const batch = { examples: Array.from({ length: 4000 }, (_, i) => setExample(rand, b * 4000 + i)) };
      expect((await call(service, "POST", "/calibration-profiles/cp/examples", batch)).status).toBe(200);
    }
    await service.close();

    const opened = await openStore({ url: store, dataDir });
    const checkpoint = await opened.profiles.checkpoint("cp");
    await opened.close();
    expect(checkpoint?.n).toBe(20_000);

    // The reference: a copy of the store without the checkpoint, read from its events.
    const copyDir = await tempDir();
    let copyStore: string | undefined;
    if (engine === "sqlite") {
      mkdirSync(copyDir, { recursive: true });
      copyFileSync(join(dataDir, SQLITE_FILE), join(copyDir, SQLITE_FILE));
    } else {
      copyStore = await postgres.database(`${name}_copy`);
      await exec(engine, copyDir, copyStore, `SELECT 1`);
      const admin = new pg.Client({ connectionString: store!.replace(`/${name}?`, "/postgres?") });
      await admin.connect();
      await admin.query(`DROP DATABASE "${name}_copy"`);
      await admin.query(`CREATE DATABASE "${name}_copy" TEMPLATE "${name}"`);
      await admin.end();
    }
    expect(await exec(engine, copyDir, copyStore, `DELETE FROM profile_checkpoints`)).toBe(1);
    const reference = await start(copyDir, copyStore);
    const expected = await answers(reference);
    await reference.close();
    expect(expected.status).toBe(200);
    expect(expected.body.answers.LAC.guarantee.n).toBe(20_000);

    expect(await exec(engine, dataDir, store, `UPDATE profile_events SET record = '{"unreadable' WHERE profile = 'cp' AND seq <= ${checkpoint!.seq}`)).toBe(checkpoint!.seq);
    const restarted = await start(dataDir, store);
    try {
      expect(await answers(restarted)).toEqual(expected);
    } finally {
      await restarted.close();
    }

    // The calibrations those queries built were checkpointed with the pools; a start restores them and answers alike.
    const reopened = await openStore({ url: store, dataDir });
    const withCalibrations = await reopened.profiles.checkpoint("cp");
    await reopened.close();
    const bytes = Buffer.from(withCalibrations!.data);
    const header = JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString("utf8")) as { calibrations?: Record<string, [string, number, unknown][]> };
    expect(bytes.readUInt32LE(4)).toBe(2);
    expect(Object.keys(header.calibrations ?? {}).sort()).toEqual(["extended-sets", "rebuilt"]);
    expect(header.calibrations!["extended-sets"]!.map(([key]) => key.split("|")[1]).sort()).toEqual(["APS", "LAC"]);
    const again = await start(dataDir, store);
    try {
      expect(await answers(again)).toEqual(expected);
    } finally {
      await again.close();
    }
  }, 120_000);
});
