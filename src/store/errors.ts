// The store's one failure a caller can wait out: the disk is full or the database cannot be reached. The
// services answer it with 503 and retry-after; nothing of the failed transaction was committed.
import { CalibkitError } from "../api/index.js";

export class StoreUnavailableError extends CalibkitError {
  override name = "StoreUnavailableError";
  /** Seconds a client should wait before trying again. */
  readonly retryAfter: number;
  constructor(cause: string, options: { retryAfter?: number; error?: unknown } = {}) {
    super("STORE_UNAVAILABLE", `The service's store cannot take writes right now (${cause}); nothing of this request was kept, retry later`, {
      status: 503, cause: options.error,
    });
    this.retryAfter = options.retryAfter ?? 2;
  }
}

const SQLITE_UNAVAILABLE: Record<string, string> = {
  SQLITE_FULL: "the disk is full",
  SQLITE_IOERR: "the disk failed a read or write",
  SQLITE_BUSY: "the database file is locked by another process",
  SQLITE_LOCKED: "the database file is locked",
  SQLITE_CANTOPEN: "the database file cannot be opened",
  SQLITE_READONLY: "the database file is read-only",
};

const NODE_UNAVAILABLE: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is exhausted",
  EIO: "the disk failed a read or write",
  ECONNREFUSED: "the database refused the connection",
  ECONNRESET: "the connection to the database was reset",
  ENOENT: "the database socket is missing (is the server running?)",
  ETIMEDOUT: "the database did not answer in time",
  EHOSTUNREACH: "the database host is unreachable",
  EPIPE: "the connection to the database broke",
};

/** The error as StoreUnavailableError when it is a full disk or a database out of reach; else unchanged. */
export function classifyStoreError(err: unknown): unknown {
  if (err instanceof StoreUnavailableError || !(err instanceof Error)) return err;
  const code = String((err as { code?: unknown }).code ?? "");
  const sqlite = Object.keys(SQLITE_UNAVAILABLE).find((prefix) => code === prefix || code.startsWith(`${prefix}_`));
  if (sqlite) return new StoreUnavailableError(`${SQLITE_UNAVAILABLE[sqlite]}: ${err.message}`, { error: err });
  if (NODE_UNAVAILABLE[code]) return new StoreUnavailableError(`${NODE_UNAVAILABLE[code]}: ${err.message}`, { error: err });
  // PostgreSQL SQLSTATE classes: 08 connection, 53 insufficient resources (53100 disk full), 57P0x shutdown.
  if (/^(08|53)...$/.test(code) || /^57P0[1-4]$/.test(code)) return new StoreUnavailableError(`PostgreSQL ${code}: ${err.message}`, { error: err });
  if (/Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(err.message)) {
    return new StoreUnavailableError(`the database connection was lost: ${err.message}`, { error: err });
  }
  return err;
}

/** A unique key taken by another writer (an Idempotency-Key used twice at once, a profile created twice). */
export function isUniqueViolation(err: unknown): boolean {
  const code = String((err as { code?: unknown } | null)?.code ?? "");
  return code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}
