// @ts-check
// The embedded engine's write connection on a thread of its own (sqlite.ts): every transaction runs here.
// The driver is synchronous: here its waits — the fsync of every COMMIT, another process's lock, a large
// BLOB — hold this thread, never the event loop that answers requests. Plain JavaScript (type-checked through JSDoc) so that
// Node starts it as it is, from dist/ and from src/ alike, under tsx, vitest or neither, with no loader.
// Messages: sqliteProtocol.ts.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

/** @typedef {import("./sqliteProtocol.js").Request} Request */
/** @typedef {import("./sqliteProtocol.js").Reply} Reply */
/** @typedef {import("./sqliteProtocol.js").PlainError} PlainError */

const port = parentPort;
if (!port) throw new Error("sqliteWorker.js runs as a worker thread of the SQLite engine");
const { file, busyMs } = /** @type {import("./sqliteProtocol.js").WorkerData} */ (workerData);

/** As TRANSFER_BYTES in sqliteProtocol.ts. */
const TRANSFER_BYTES = 64 * 1024;

/** @param {unknown} err @returns {PlainError} */
function plainError(err) {
  if (!(err instanceof Error)) return { name: "Error", message: String(err) };
  const code = /** @type {{ code?: unknown }} */ (err).code;
  return { name: err.name, message: err.message, code: typeof code === "string" ? code : undefined };
}

/** @param {Reply} reply @param {unknown[]} [rows] rows whose large BLOBs are moved rather than copied */
function send(reply, rows) {
  /** @type {ArrayBuffer[]} */
  const moved = [];
  for (const row of rows ?? []) {
    for (const v of Object.values(/** @type {object} */ (row))) {
      if (v instanceof Uint8Array && v.byteLength >= TRANSFER_BYTES && v.byteOffset === 0 && v.buffer.byteLength === v.byteLength && v.buffer instanceof ArrayBuffer) moved.push(v.buffer);
    }
  }
  if (moved.length === 0) return port?.postMessage(reply);
  try {
    port?.postMessage(reply, moved);
  } catch {
    // A buffer the runtime will not hand over (one it allocated for itself): copied then.
    port?.postMessage(reply);
  }
}

/**
 * Every statement prepared here is kept for the connection's life, pragmas included (the driver's pragma()
 * drops one per call): on Node 24, better-sqlite3 12 aborts the process when it garbage-collects a statement
 * at a moment Node has no current environment (its issue #1515; version 13 needs Node 22). The store's
 * statements are a small fixed set.
 * @type {Database.Statement[]}
 */
const kept = [];
/** @param {Database.Database} db @param {string} text */
function keep(db, text) {
  const statement = db.prepare(text);
  kept.push(statement);
  return statement;
}

/** @type {Database.Statement | undefined} */
let dataVersion;

/** The connection, or undefined (and the thread ending) when the file cannot be opened. */
function open() {
  try {
    const db = new Database(file, { timeout: busyMs });
    keep(db, "PRAGMA journal_mode = WAL").get();
    keep(db, "PRAGMA synchronous = FULL").run();
    keep(db, "PRAGMA foreign_keys = ON").run();
    dataVersion = keep(db, "PRAGMA data_version").pluck();
    port?.postMessage({ id: 0, value: "open" });
    return db;
  } catch (err) {
    port?.postMessage({ id: 0, error: plainError(err) });
    port?.close();
    return undefined;
  }
}

const db = open();

/** Statements as prepared, with the order `$n` parameters take as SQLite's positional `?`. */
/** @type {Map<string, { statement: Database.Statement, order: number[] }>} */
const statements = new Map();

/** @param {Database.Database} db @param {string} text */
function prepared(db, text) {
  let s = statements.get(text);
  if (!s) {
    /** @type {number[]} */
    const order = [];
    const rewritten = text.replace(/\$(\d+)/g, (_, n) => {
      order.push(Number(n) - 1);
      return "?";
    });
    s = { statement: keep(db, rewritten), order };
    statements.set(text, s);
  }
  return s;
}

/** @param {number[]} order @param {readonly unknown[]} params */
const values = (order, params) => order.map((i) => {
  const v = params[i];
  return typeof v === "boolean" ? (v ? 1 : 0) : v === undefined ? null : v;
});

/** @param {Database.Database} db @param {Request} req */
function answer(db, req) {
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
      return port?.close();
  }
}

if (db) {
  port.on("message", (/** @type {Request} */ req) => {
    try {
      answer(db, req);
    } catch (err) {
      port.postMessage({ id: req.id, error: plainError(err) });
    }
  });
}
