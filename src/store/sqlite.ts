// The embedded engine: one SQLite file through better-sqlite3 (a maintained driver, compiled at install;
// docs/storage.md). WAL journal with synchronous=FULL: a commit is fsynced before it returns. The driver
// is synchronous, so transactions are queued here one after another; several processes on one file are
// serialised by SQLite's own file lock (busy_timeout waits for it).
import Database from "better-sqlite3";
import { classifyStoreError } from "./errors.js";
import type { Row, Sql, SqlEngine } from "./sql.js";

/** `$1`-numbered statements as SQLite's positional `?`, with the parameters reordered to match. */
function positional(text: string, params: readonly unknown[]): { text: string; params: unknown[] } {
  const ordered: unknown[] = [];
  const rewritten = text.replace(/\$(\d+)/g, (_, n: string) => {
    ordered.push(params[Number(n) - 1]);
    return "?";
  });
  return { text: rewritten, params: ordered };
}

const toSqlite = (value: unknown) => (typeof value === "boolean" ? (value ? 1 : 0) : value === undefined ? null : value);

export class SqliteEngine implements SqlEngine {
  readonly kind = "sqlite" as const;
  readonly forUpdate = "";
  readonly skipLocked = "";
  private tail: Promise<unknown> = Promise.resolve();
  private readonly statements = new Map<string, Database.Statement>();
  private readonly listeners: ((payload: string) => void)[] = [];
  private poll: NodeJS.Timeout | undefined;

  private constructor(private readonly db: Database.Database, readonly location: string) {}

  static open(file: string): SqliteEngine {
    let db: Database.Database;
    try {
      db = new Database(file, { timeout: 5_000 });
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      db.pragma("foreign_keys = ON");
    } catch (err) {
      throw classifyStoreError(err);
    }
    return new SqliteEngine(db, file);
  }

  private statement(text: string): Database.Statement {
    let s = this.statements.get(text);
    if (!s) {
      s = this.db.prepare(text);
      if (this.statements.size > 256) this.statements.clear();
      this.statements.set(text, s);
    }
    return s;
  }

  private allNow<T extends Row>(text: string, params: readonly unknown[] = []): T[] {
    const q = positional(text, params);
    const s = this.statement(q.text);
    const values = q.params.map(toSqlite);
    if (s.reader) return s.all(...values) as T[];
    s.run(...values);
    return [];
  }

  private runNow(text: string, params: readonly unknown[] = []): number {
    const q = positional(text, params);
    return this.statement(q.text).run(...q.params.map(toSqlite)).changes;
  }

  private readonly sql: Sql = {
    all: async <T extends Row>(text: string, params?: readonly unknown[]) => this.allNow<T>(text, params),
    run: async (text: string, params?: readonly unknown[]) => this.runNow(text, params),
  };

  async all<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    try {
      return this.allNow<T>(text, params);
    } catch (err) {
      throw classifyStoreError(err);
    }
  }

  async run(text: string, params?: readonly unknown[]): Promise<number> {
    return this.transaction((tx) => tx.run(text, params));
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const next = this.tail.then(async () => {
      try {
        this.db.exec("BEGIN IMMEDIATE");
      } catch (err) {
        throw classifyStoreError(err);
      }
      try {
        const result = await fn(this.sql);
        this.db.exec("COMMIT");
        return result;
      } catch (err) {
        if (this.db.inTransaction) {
          try {
            this.db.exec("ROLLBACK");
          } catch {
            // SQLite rolled back by itself (a full disk can do that); nothing to undo.
          }
        }
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
    let version = this.db.pragma("data_version", { simple: true }) as number;
    this.poll = setInterval(() => {
      try {
        const now = this.db.pragma("data_version", { simple: true }) as number;
        if (now === version) return;
        version = now;
        for (const listener of this.listeners) listener("*");
      } catch {
        // A closed or unreadable file: the next write reports it.
      }
    }, 250);
    this.poll.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.poll);
    await this.tail;
    this.db.close();
  }
}
