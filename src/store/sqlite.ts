// The embedded engine: one SQLite file through better-sqlite3 (a maintained driver, compiled at install;
// docs/storage.md). WAL journal with synchronous=FULL: a commit is fsynced before it resolves. The driver is
// synchronous, so what waits runs on a thread of its own (sqliteWorker.ts): the write connection, where
// every transaction runs, one after another as queued here, and with it every fsync, lock wait and BLOB
// write. Reads outside a transaction go to a second, read-only connection on the event loop: in WAL mode a
// reader waits for no lock and no disk write, it reads the last committed state (never a transaction's
// uncommitted rows), and it costs the event loop about what materialising the rows there would anyway.
// Several processes on one file are serialised by SQLite's own file lock (busy_timeout waits for it).
import Database from "better-sqlite3";
import { classifyStoreError } from "./errors.js";
import type { Row, RunOptions, Sql, SqlEngine } from "./sql.js";
import { transferable } from "./sqliteProtocol.js";
import { ThreadSlot, type SqliteThread } from "./sqliteThread.js";

const BUSY_MS = 5_000;

const toSqlite = (value: unknown) => (typeof value === "boolean" ? (value ? 1 : 0) : value === undefined ? null : value);

export class SqliteEngine implements SqlEngine {
  readonly kind = "sqlite" as const;
  readonly forUpdate = "";
  readonly skipLocked = "";
  private tail: Promise<unknown> = Promise.resolve();
  /**
   * Read statements as prepared, with the order `$n` parameters take as SQLite's positional `?`; kept for the
   * connection's life, never dropped (sqliteWorker.ts says why: better-sqlite3 12 on Node 24).
   */
  private readonly statements = new Map<string, { statement: Database.Statement; order: number[] }>();
  private readonly listeners: ((payload: string) => void)[] = [];
  private poll: NodeJS.Timeout | undefined;

  private constructor(private readonly reader: Database.Database, private readonly writer: ThreadSlot, readonly location: string) {}

  /**
   * Opens the read connection at once (a file that cannot be opened rejects here) and starts the write thread
   * beside it: a start that only reads never waits for the thread, the first write does.
   */
  static async open(file: string): Promise<SqliteEngine> {
    let reader: Database.Database;
    const kept: Database.Statement[] = [];
    try {
      reader = new Database(file, { timeout: BUSY_MS });
      // WAL is a property of the file: set here too, so a file that cannot take it fails the open, as before.
      kept.push(reader.prepare("PRAGMA journal_mode = WAL"), reader.prepare("PRAGMA query_only = ON"));
      kept[0]!.get();
      kept[1]!.run();
    } catch (err) {
      throw classifyStoreError(err);
    }
    const engine = new SqliteEngine(reader, new ThreadSlot({ file, busyMs: BUSY_MS }), file);
    kept.forEach((statement, i) => engine.statements.set(`-- open ${i}`, { statement, order: [] }));
    return engine;
  }

  async all<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    let prepared: { statement: Database.Statement; order: number[] };
    try {
      prepared = this.prepared(text);
    } catch (err) {
      throw classifyStoreError(err);
    }
    // A statement that writes has no place on the read-only connection: it is a transaction of its own.
    if (!prepared.statement.reader) return this.transaction((tx) => tx.all<T>(text, params));
    try {
      return prepared.statement.all(...prepared.order.map((i) => toSqlite(params[i]))) as T[];
    } catch (err) {
      throw classifyStoreError(err);
    }
  }

  private prepared(text: string): { statement: Database.Statement; order: number[] } {
    let s = this.statements.get(text);
    if (!s) {
      const order: number[] = [];
      const rewritten = text.replace(/\$(\d+)/g, (_, n: string) => {
        order.push(Number(n) - 1);
        return "?";
      });
      s = { statement: this.reader.prepare(rewritten), order };
      this.statements.set(text, s);
    }
    return s;
  }

  async run(text: string, params?: readonly unknown[], options?: RunOptions): Promise<number> {
    return this.transaction((tx) => tx.run(text, params, options));
  }

  async runMany(text: string, rows: readonly (readonly unknown[])[]): Promise<number> {
    return this.transaction((tx) => tx.runMany(text, rows));
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const next = this.tail.then(async () => {
      let thread: SqliteThread;
      try {
        thread = await this.writer.thread();
        await thread.request({ op: "begin" });
      } catch (err) {
        throw classifyStoreError(err);
      }
      // Bound to this thread: were it to stop mid-transaction, the rest fails rather than running outside it.
      const tx: Sql = {
        all: async <R extends Row>(text: string, params: readonly unknown[] = []) => (await thread.request({ op: "all", text, params })) as R[],
        run: async (text: string, params: readonly unknown[] = [], options?: RunOptions) =>
          (await thread.request({ op: "run", text, params }, options?.handOver ? transferable(params) : [])) as number,
        runMany: async (text: string, rows: readonly (readonly unknown[])[]) => (rows.length === 0 ? 0 : (await thread.request({ op: "many", text, rows })) as number),
      };
      try {
        const result = await fn(tx);
        await thread.request({ op: "commit" });
        return result;
      } catch (err) {
        await thread.request({ op: "rollback" }).catch(() => undefined);
        throw classifyStoreError(err);
      }
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Other processes on the same file are seen through SQLite's data_version, polled while anyone listens. */
  async notify(): Promise<void> {}

  async listen(fn: (payload: string) => void): Promise<void> {
    this.listeners.push(fn);
    if (this.poll) return;
    // The write connection's data_version: it moves with other processes' commits, never with its own (the
    // read connection's would move with every write of this process too). Its first reading, once the
    // thread is up (a start does not wait for it), counts as a change: whatever another process wrote since
    // the caller listed the store is looked at then.
    let seen: number | undefined;
    let asking = false;
    const check = () => {
      if (asking) return;
      asking = true;
      this.writer.thread().then((thread) => thread.request({ op: "version" })).then((now) => {
        if (now === seen) return;
        seen = now as number;
        for (const listener of this.listeners) listener("*");
      }, () => undefined).finally(() => (asking = false));
    };
    check();
    this.poll = setInterval(check, 250);
    this.poll.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.poll);
    await this.tail;
    await this.writer.close();
    this.reader.close();
  }

  /** Stops the write thread at once, as a crash would; the next transaction starts a new one (for tests). */
  async killWriter(): Promise<void> {
    await (await this.writer.thread()).kill();
  }
}
