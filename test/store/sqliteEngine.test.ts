// The embedded engine runs SQLite's writes on a thread of its own (src/store/sqlite.ts): the event loop keeps
// serving while a write waits on the database, a read outside a transaction never sees a transaction's
// uncommitted rows, a batch is all or nothing, and a thread that stops is reported (503) and replaced.
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../src/store/index.js";
import { SqliteEngine } from "../../src/store/sqlite.js";

const opened: SqliteEngine[] = [];
async function engine(): Promise<{ engine: SqliteEngine; file: string }> {
  const file = join(mkdtempSync(join(tmpdir(), "calibkit-sqlite-engine-")), "calibkit.db");
  const e = await SqliteEngine.open(file);
  opened.push(e);
  await e.run(`CREATE TABLE t (id INTEGER PRIMARY KEY, note TEXT)`);
  return { engine: e, file };
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((e) => e.close()));
});

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("the SQLite engine", () => {
  it("answers reads outside a transaction from committed rows only, while a transaction waits across an await", async () => {
    const { engine: db } = await engine();
    const inserted = gate();
    const release = gate();
    const tx = db.transaction(async (tx) => {
      await tx.run(`INSERT INTO t (id, note) VALUES ($1, $2)`, [1, "uncommitted"]);
      expect(await tx.all(`SELECT id FROM t`)).toEqual([{ id: 1 }]); // the transaction sees its own row
      inserted.open();
      await release.opened;
    });
    await inserted.opened;
    expect(await db.all(`SELECT id, note FROM t`)).toEqual([]);
    release.open();
    await tx;
    expect(await db.all(`SELECT id, note FROM t`)).toEqual([{ id: 1, note: "uncommitted" }]);
  });

  it("serves an HTTP request on the event loop while a write waits for another connection's lock", async () => {
    const { engine: db, file } = await engine();
    // Another connection (as another process would) holds the write lock until the HTTP handler lets it go:
    // the write can only finish after the request was served, which a driver blocking the event loop never allows.
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    const order: string[] = [];
    const server = createServer((_req, res) => {
      holder.exec("COMMIT");
      order.push("request served");
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const write = db.run(`INSERT INTO t (id, note) VALUES (1, 'after the lock')`).then(() => order.push("write committed"));
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await res.text()).toBe("ok");
      await write;
      expect(order).toEqual(["request served", "write committed"]);
      expect(await db.all(`SELECT note FROM t`)).toEqual([{ note: "after the lock" }]);
    } finally {
      server.close();
      holder.close();
    }
  });

  it("runs a batch of rows as one message, all or none", async () => {
    const { engine: db } = await engine();
    expect(await db.runMany(`INSERT INTO t (id, note) VALUES ($1, $2)`, [[1, "a"], [2, "b"]])).toBe(2);
    // The third row repeats a key: the whole batch is rolled back, with the driver's code kept across threads.
    const failed = await db.runMany(`INSERT INTO t (id, note) VALUES ($1, $2)`, [[3, "c"], [4, "d"], [1, "again"]]).catch((err: unknown) => err);
    expect((failed as { code?: string }).code).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
    expect(await db.all(`SELECT id FROM t ORDER BY id`)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it("hands a large BLOB parameter over to its thread and reads it back whole", async () => {
    const { engine: db } = await engine();
    await db.run(`CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`);
    const data = new Uint8Array(1 << 20).map((_, i) => i % 251);
    await db.run(`INSERT INTO blobs (id, data) VALUES (1, $1)`, [data], { handOver: true });
    expect(data.byteLength).toBe(0); // moved, not copied
    const [row] = await db.all<{ data: Uint8Array }>(`SELECT data FROM blobs WHERE id = 1`);
    expect(row!.data.byteLength).toBe(1 << 20);
    expect(row!.data.every((v, i) => v === i % 251)).toBe(true);
  });

  it("reports a thread that stops mid-transaction as a 503, keeps nothing of it, and carries on with a new thread", async () => {
    const { engine: db } = await engine();
    const inserted = gate();
    const release = gate();
    const tx = db.transaction(async (tx) => {
      await tx.run(`INSERT INTO t (id, note) VALUES (1, 'lost with its thread')`);
      inserted.open();
      await release.opened;
      await tx.run(`INSERT INTO t (id, note) VALUES (2, 'never reached')`);
    });
    await inserted.opened;
    await db.killWriter();
    release.open();
    const err = await tx.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as StoreUnavailableError).status).toBe(503);
    expect((err as Error).message).toMatch(/SQLite write thread stopped/);
    await db.run(`INSERT INTO t (id, note) VALUES (3, 'after')`);
    expect(await db.all(`SELECT id FROM t ORDER BY id`)).toEqual([{ id: 3 }]);
  });

  it("refuses a file it cannot open with the driver's error classified on the event loop's side (a 503)", async () => {
    const folder = mkdtempSync(join(tmpdir(), "calibkit-sqlite-engine-"));
    const err = await SqliteEngine.open(folder).catch((e: unknown) => e); // a folder where the file should be
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toMatch(/cannot be opened/);
  });
});
