// The engine for several instances: PostgreSQL through `pg` (node-postgres, pure JavaScript, nothing to
// compile). A transaction holds one pooled connection; COMMIT returns once PostgreSQL has flushed its WAL
// (synchronous_commit on, the server default). Change notices travel by LISTEN/NOTIFY on one channel.
import { pipeline } from "node:stream/promises";
import { Writable } from "node:stream";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { CopyRowReader } from "./copyBinary.js";
import { classifyStoreError } from "./errors.js";
import type { Row, Sql, SqlEngine } from "./sql.js";

const CHANNEL = "calibkit_changes";

// BIGINT as a JavaScript number: counters here stay far below 2^53.
pg.types.setTypeParser(20, (value: string) => Number(value));

/** The URL without its password, for logs. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://…";
  }
}

export class PostgresEngine implements SqlEngine {
  readonly kind = "postgres" as const;
  readonly forUpdate = " FOR UPDATE";
  readonly skipLocked = " SKIP LOCKED";
  readonly channel = CHANNEL;
  readonly location: string;
  private listener: pg.Client | undefined;
  private readonly listeners: ((payload: string) => void)[] = [];
  private closed = false;

  private constructor(private readonly pool: pg.Pool, private readonly url: string) {
    this.location = shown(url);
    // An idle client that loses its server emits here; without a handler the process would die.
    pool.on("error", () => undefined);
  }

  static async open(url: string): Promise<PostgresEngine> {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
    const engine = new PostgresEngine(pool, url);
    try {
      await pool.query("SELECT 1");
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw classifyStoreError(err);
    }
    return engine;
  }

  async all<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await this.pool.query<T>(text, params as unknown[])).rows;
    } catch (err) {
      throw classifyStoreError(err);
    }
  }

  async run(text: string, params: readonly unknown[] = []): Promise<number> {
    try {
      return (await this.pool.query(text, params as unknown[])).rowCount ?? 0;
    } catch (err) {
      throw classifyStoreError(err);
    }
  }

  runMany(text: string, rows: readonly (readonly unknown[])[]): Promise<number> {
    return this.transaction((tx) => tx.runMany(text, rows));
  }

  /**
   * The first row of `select` ($1 is `value`, quoted: COPY takes no parameters), each column as the raw bytes of
   * its binary form (a bigint: 8 bytes, big-endian), streamed through COPY … TO STDOUT (FORMAT binary) by
   * pg-copy-streams. node-postgres reads every column of a row as text (a bytea as hex, twice its size, and a
   * row's message gathered whole), and its `binary` results go through a UTF-8 string too, which breaks a bytea.
   * One statement: one snapshot. Undefined when there is no row.
   */
  async copyRow(select: string, value: string): Promise<(Uint8Array | null)[] | undefined> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw classifyStoreError(err);
    }
    let broken = false;
    try {
      const reader = new CopyRowReader();
      const text = `COPY (${select.replace("$1", client.escapeLiteral(value))}) TO STDOUT (FORMAT binary)`;
      await pipeline(client.query(copyTo(text)), new Writable({
        write(chunk: Buffer, _encoding, next) {
          try {
            reader.push(chunk);
            next();
          } catch (err) {
            next(err as Error);
          }
        },
      }));
      return reader.row();
    } catch (err) {
      broken = true; // a COPY stopped halfway leaves the connection mid-protocol
      throw classifyStoreError(err);
    } finally {
      client.release(broken);
    }
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw classifyStoreError(err);
    }
    const tx: Sql = {
      all: async <R extends Row>(text: string, params: readonly unknown[] = []) => (await client.query<R>(text, params as unknown[])).rows,
      run: async (text: string, params: readonly unknown[] = []) => (await client.query(text, params as unknown[])).rowCount ?? 0,
      runMany: async (text: string, rows: readonly (readonly unknown[])[]) => {
        let changed = 0;
        for (const params of rows) changed += (await client.query(text, params as unknown[])).rowCount ?? 0;
        return changed;
      },
    };
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await fn(tx);
      await client.query("COMMIT");
      return result;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
      throw classifyStoreError(err);
    } finally {
      client.release(broken);
    }
  }

  async notify(tx: Sql, payload: string): Promise<void> {
    await tx.all(`SELECT pg_notify($1, $2)`, [CHANNEL, payload]);
  }

  async listen(fn: (payload: string) => void): Promise<void> {
    this.listeners.push(fn);
    if (this.listener) return;
    await this.connectListener();
  }

  /** A dedicated connection for LISTEN; when it drops, everything is re-checked ("*") once it is back. */
  private async connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("error", () => undefined);
    client.on("notification", (n) => {
      for (const listener of this.listeners) listener(n.payload ?? "*");
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    this.listener = client;
    client.on("end", () => {
      if (this.closed) return;
      this.listener = undefined;
      let trying = false;
      const retry = setInterval(() => {
        if (this.closed) return clearInterval(retry);
        if (trying) return;
        trying = true;
        this.connectListener().then(() => {
          clearInterval(retry);
          for (const listener of this.listeners) listener("*");
        }, () => undefined).finally(() => (trying = false));
      }, 1_000);
      retry.unref();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}
