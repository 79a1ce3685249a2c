// What the tables below need from an engine: transactions of parameterised statements ($1, $2, ... in
// PostgreSQL's spelling; the SQLite engine rewrites them), reads outside a transaction, and change notices
// between instances. Outside a transaction, a read sees only what was committed. Statements use the SQL both engines share; the few differences are engine fields.

export type Row = object;

export interface RunOptions {
  /**
   * The parameters' large byte arrays are handed over: the engine may take their memory rather than copy it
   * (SQLite moves them to its thread), so the caller must not read them afterwards. Default false.
   */
  handOver?: boolean | undefined;
}

export interface Sql {
  all<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement; resolves with the number of rows it changed. */
  run(text: string, params?: readonly unknown[], options?: RunOptions): Promise<number>;
  /** Runs one statement once per parameter row (one message to SQLite's thread for the lot); the rows changed. */
  runMany(text: string, rows: readonly (readonly unknown[])[]): Promise<number>;
}

export interface SqlEngine extends Sql {
  readonly kind: "sqlite" | "postgres";
  /** Where the data lives, for logs (never a password). */
  readonly location: string;
  /** Appended to a SELECT that must lock its rows until commit (PostgreSQL); SQLite locks the whole file. */
  readonly forUpdate: string;
  /** `SKIP LOCKED` after forUpdate where the engine has it. */
  readonly skipLocked: string;
  /** One transaction, committed durably before it resolves; rolled back when `fn` throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** PostgreSQL: the channel notify() sends on, for a statement that sends its notice itself (pg_notify). */
  readonly channel?: string;
  /** Tells other instances on the same database that `payload` changed (sent at commit). */
  notify(tx: Sql, payload: string): Promise<void>;
  /**
   * PostgreSQL only: the first row of `select` ($1 = `value`), each column's raw binary bytes (a bytea as itself:
   * no text encoding), or undefined when it has no row.
   */
  copyRow?(select: string, value: string): Promise<(Uint8Array | null)[] | undefined>;
  /** Calls `fn` with what other instances notified. */
  listen(fn: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}
