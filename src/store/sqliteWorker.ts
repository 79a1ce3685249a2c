// The embedded engine's write connection on a thread of its own (sqlite.ts): every transaction runs here.
// The driver is synchronous: here its waits — the fsync of every COMMIT, another process's lock, a large
// BLOB — hold this thread, never the event loop that answers requests. Started by sqliteThread.ts: compiled,
// from dist/, or from the source through tsx's loader. Messages: sqliteProtocol.ts.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { transferable, type PlainError, type Reply, type Request, type WorkerData } from "./sqliteProtocol.js";

if (!parentPort) throw new Error("sqliteWorker runs as a worker thread of the SQLite engine");
const port = parentPort;
const { file, busyMs } = workerData as WorkerData;

function plainError(err: unknown): PlainError {
  if (!(err instanceof Error)) return { name: "Error", message: String(err) };
  const code = (err as { code?: unknown }).code;
  return { name: err.name, message: err.message, code: typeof code === "string" ? code : undefined };
}

/** Sends a reply; the large BLOBs of `rows` are moved rather than copied. */
function send(reply: Reply, rows?: readonly unknown[]): void {
  const moved = rows ? transferable(rows.flatMap((row) => Object.values(row as object))) : [];
  if (moved.length === 0) return port.postMessage(reply);
  try {
    port.postMessage(reply, moved);
  } catch {
    // A buffer the runtime will not hand over (one it allocated for itself): copied then.
    port.postMessage(reply);
  }
}

/**
 * Every statement prepared here is kept for the connection's life, pragmas included (the driver's pragma()
 * drops one per call): on Node 24, better-sqlite3 12 aborts the process when it garbage-collects a statement
 * at a moment Node has no current environment (its issue #1515; version 13 needs Node 22). The store's
 * statements are a small fixed set.
 */
const kept: Database.Statement[] = [];
function keep(db: Database.Database, text: string): Database.Statement {
  const statement = db.prepare(text);
  kept.push(statement);
  return statement;
}

let dataVersion: Database.Statement | undefined;

/** The connection, or undefined (and the thread ending) when the file cannot be opened. */
function open(): Database.Database | undefined {
  try {
    const db = new Database(file, { timeout: busyMs });
    keep(db, "PRAGMA journal_mode = WAL").get();
    keep(db, "PRAGMA synchronous = FULL").run();
    keep(db, "PRAGMA foreign_keys = ON").run();
    dataVersion = keep(db, "PRAGMA data_version").pluck();
    port.postMessage({ id: 0, value: "open" });
    return db;
  } catch (err) {
    port.postMessage({ id: 0, error: plainError(err) });
    port.close();
    return undefined;
  }
}

const db = open();

/** Statements as prepared, with the order `$n` parameters take as SQLite's positional `?`. */
const statements = new Map<string, { statement: Database.Statement; order: number[] }>();

function prepared(db: Database.Database, text: string): { statement: Database.Statement; order: number[] } {
  let s = statements.get(text);
  if (!s) {
    const order: number[] = [];
    const rewritten = text.replace(/\$(\d+)/g, (_, n: string) => {
      order.push(Number(n) - 1);
      return "?";
    });
    s = { statement: keep(db, rewritten), order };
    statements.set(text, s);
  }
  return s;
}

const values = (order: readonly number[], params: readonly unknown[]): unknown[] => order.map((i) => {
  const v = params[i];
  return typeof v === "boolean" ? (v ? 1 : 0) : v === undefined ? null : v;
});

function answer(db: Database.Database, req: Request): void {
  // Statements run only inside the transaction the engine began: had SQLite rolled it back by itself (a
  // full disk can), the rest must fail rather than commit one by one.
  if ((req.op === "all" || req.op === "run" || req.op === "many") && !db.inTransaction) {
    throw Object.assign(new Error("the transaction was rolled back by SQLite before its end"), { code: "SQLITE_ABORT_ROLLBACK" });
  }
  switch (req.op) {
    case "all": {
      const { statement, order } = prepared(db, req.text);
      if (statement.reader) {
        const rows = statement.all(...values(order, req.params));
        return send({ id: req.id, value: rows }, rows);
      }
      statement.run(...values(order, req.params));
      return send({ id: req.id, value: [] });
    }
    case "run": {
      const { statement, order } = prepared(db, req.text);
      return send({ id: req.id, value: statement.run(...values(order, req.params)).changes });
    }
    case "many": {
      const { statement, order } = prepared(db, req.text);
      let changes = 0;
      for (const row of req.rows) changes += statement.run(...values(order, row)).changes;
      return send({ id: req.id, value: changes });
    }
    case "begin":
      db.exec("BEGIN IMMEDIATE");
      return send({ id: req.id, value: null });
    case "commit":
      db.exec("COMMIT");
      return send({ id: req.id, value: null });
    case "rollback":
      // SQLite may have rolled back by itself (a full disk can do that): then there is nothing to undo.
      if (db.inTransaction) db.exec("ROLLBACK");
      return send({ id: req.id, value: null });
    case "version":
      return send({ id: req.id, value: dataVersion?.get() });
    case "close":
      db.close();
      send({ id: req.id, value: null });
      return port.close();
  }
}

if (db) {
  port.on("message", (req: Request) => {
    try {
      answer(db, req);
    } catch (err) {
      port.postMessage({ id: req.id, error: plainError(err) });
    }
  });
}
