// The embedded engine: one SQLite file through better-sqlite3 (a maintained driver, compiled at install;
// docs/storage.md). WAL journal with synchronous=FULL: a commit is fsynced before it resolves. The driver is
// synchronous, so it runs on two threads of its own (sqliteWorker.js), never on the event loop: the writer's
// connection runs every transaction, one after another as queued here; the reader's answers the reads made
// outside a transaction, from the last committed state (WAL lets it read beside the writer), so no read sees
// rows a transaction has not committed. Several processes on one file are serialised by SQLite's own file
// lock (busy_timeout waits for it, on the writer's thread).
import { classifyStoreError } from "./errors.js";
import type { Row, RunOptions, Sql, SqlEngine } from "./sql.js";
import { transferable, WRITE_ON_READER, type Role } from "./sqliteProtocol.js";
import { SqliteThread, ThreadSlot } from "./sqliteThread.js";

const BUSY_MS = 5_000;

export class SqliteEngine implements SqlEngine {
  readonly kind = "sqlite" as const;
  readonly forUpdate = "";
  readonly skipLocked = "";
  private tail: Promise<unknown> = Promise.resolve();
  private readonly listeners: ((payload: string) => void)[] = [];
  private poll: NodeJS.Timeout | undefined;

  private constructor(private readonly writer: ThreadSlot, private readonly reader: ThreadSlot, readonly location: string) {}

  /** Opens the file on both threads (started side by side); a file that cannot be opened rejects here. */
  static async open(file: string): Promise<SqliteEngine> {
    const data = (role: Role) => ({ file, role, busyMs: BUSY_MS });
    const started = [SqliteThread.start(data("write")), SqliteThread.start(data("read"))] as const;
    const [writer, reader] = await Promise.allSettled(started);
    if (writer.status === "rejected" || reader.status === "rejected") {
      for (const t of [writer, reader]) if (t.status === "fulfilled") await t.value.close();
      throw classifyStoreError(writer.status === "rejected" ? writer.reason : (reader as PromiseRejectedResult).reason);
    }
    return new SqliteEngine(new ThreadSlot(data("write"), started[0]), new ThreadSlot(data("read"), started[1]), file);
  }

  async all<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await (await this.reader.thread()).request({ op: "all", text, params })) as T[];
    } catch (err) {
      // A statement that writes has no place on the read-only connection: it is a transaction of its own.
      if ((err as { code?: unknown }).code === WRITE_ON_READER) return this.transaction((tx) => tx.all<T>(text, params));
      throw classifyStoreError(err);
    }
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
    // The writer's connection: its data_version moves with other processes' commits, not with its own.
    const version = async () => (await (await this.writer.thread()).request({ op: "version" })) as number;
    let seen = await version();
    let asking = false;
    this.poll = setInterval(() => {
      if (asking) return;
      asking = true;
      version().then((now) => {
        if (now === seen) return;
        seen = now;
        for (const listener of this.listeners) listener("*");
      }, () => undefined).finally(() => (asking = false));
    }, 250);
    this.poll.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.poll);
    await this.tail;
    await Promise.all([this.writer.close(), this.reader.close()]);
  }

  /** Stops both threads at once, as a crash would; the next statement starts new ones (for tests). */
  async killThreads(): Promise<void> {
    for (const slot of [this.writer, this.reader]) await (await slot.thread()).kill();
  }
}
