// The evidence cache (#13): every evidence row a run computes, kept in one SQLite file in the cache folder
// so a repeat run (another α, method, split or seed) or a restarted one makes no model call for it.
// Each batch of rows is one transaction in WAL mode: a run killed at any instant leaves whole rows or none,
// never a half-written one. synchronous=NORMAL is enough here: a lost tail after a power cut is recomputed.
// Before a batch is computed its keys are marked in flight, and the commit of its rows clears the marks in
// the same transaction: what a kill leaves marked is exactly what the model was computing at that instant,
// and the restart says how many of those it computes again.
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type Database from "better-sqlite3";

export const EVIDENCE_CACHE_FILE = "evidence.sqlite";

/** better-sqlite3, loaded at the first cache opened: the store's index is also loaded by every serve. */
const loadDriver = (): typeof Database => createRequire(import.meta.url)("better-sqlite3") as typeof Database;

/** What one cached row is keyed by (docs/run.md, "The evidence cache"). */
export interface EvidenceKey {
  fingerprint: string;
  promptHash: string;
  contentHash: string;
  accessLevel: string;
  /** Canonical JSON of the sampling settings ("{}" for scored evidence). */
  sampling: string;
}

export interface EvidenceCacheEntry {
  key: EvidenceKey;
  /** The model as the user named it, for `calibkit cache list`. */
  model: string;
  evidence: unknown;
}

export interface EvidenceCacheGroup {
  model: string;
  fingerprint: string;
  promptHash: string;
  accessLevel: string;
  rows: number;
  first: string;
  last: string;
}

export interface PruneFilter {
  /** Rows whose model or fingerprint contains this text. */
  model?: string;
  /** Rows written before this instant. */
  before?: Date;
}

/** Whether the process of a writer id (a pid) still runs; a signal 0 only checks. */
function alive(writer: string): boolean {
  const pid = Number(writer);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

const keyText = (k: EvidenceKey) => JSON.stringify([k.fingerprint, k.promptHash, k.contentHash, k.accessLevel, k.sampling]);

/**
 * Every statement the cache runs, prepared once when the file is opened and kept for the connection's life:
 * on Node 24 better-sqlite3 12 can abort the process when a dropped statement is collected at the wrong moment
 * (src/store/sqliteWorker.ts), so no call prepares one of its own.
 */
function prepareStatements(db: Database.Database) {
  const prune = (model: boolean, before: boolean) => {
    const where = [...(model ? ["(instr(model, ?) > 0 OR instr(fingerprint, ?) > 0)"] : []), ...(before ? ["created_at < ?"] : [])];
    return db.prepare(`DELETE FROM evidence${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`);
  };
  return {
    get: db.prepare<[string], { evidence: string }>("SELECT evidence FROM evidence WHERE key = ?"),
    put: db.prepare(`INSERT INTO evidence (key, fingerprint, prompt_hash, content_hash, access_level, sampling, model, evidence, created_at, writer)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`),
    landed: db.prepare("DELETE FROM in_flight WHERE key = ?"),
    mark: db.prepare("INSERT INTO in_flight (key, writer, started_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET writer = excluded.writer, started_at = excluded.started_at"),
    writerInFlight: db.prepare<[string], { writer: string }>("SELECT writer FROM in_flight WHERE key = ?"),
    inFlight: db.prepare<[], { writer: string; n: number }>("SELECT writer, COUNT(*) AS n FROM in_flight GROUP BY writer"),
    list: db.prepare<[], EvidenceCacheGroup>(`SELECT model, fingerprint, prompt_hash AS promptHash, access_level AS accessLevel, COUNT(*) AS rows,
      MIN(created_at) AS first, MAX(created_at) AS last FROM evidence GROUP BY model, fingerprint, prompt_hash, access_level
      ORDER BY last DESC`),
    writers: db.prepare<[], { writer: string; n: number }>("SELECT writer, COUNT(*) AS n FROM evidence GROUP BY writer"),
    /** By filter: [neither, model, before, both]. */
    prune: [prune(false, false), prune(true, false), prune(false, true), prune(true, true)],
    checkpoint: db.prepare("PRAGMA wal_checkpoint(TRUNCATE)"),
  };
}

export class EvidenceCache {
  private readonly statements: ReturnType<typeof prepareStatements>;

  private constructor(private readonly db: Database.Database, readonly dir: string, private readonly setup: readonly Database.Statement[]) {
    this.statements = prepareStatements(db);
  }

  static open(dir: string): EvidenceCache {
    mkdirSync(dir, { recursive: true });
    const db = new (loadDriver())(join(dir, EVIDENCE_CACHE_FILE), { timeout: 10_000 });
    // db.pragma would prepare a statement per call and drop it: these are kept with the rest.
    const setup = [db.prepare("PRAGMA journal_mode = WAL"), db.prepare("PRAGMA synchronous = NORMAL")];
    setup[0]!.get();
    setup[1]!.run();
    db.exec(`CREATE TABLE IF NOT EXISTS evidence (
      key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, prompt_hash TEXT NOT NULL, content_hash TEXT NOT NULL,
      access_level TEXT NOT NULL, sampling TEXT NOT NULL, model TEXT NOT NULL, evidence TEXT NOT NULL,
      created_at TEXT NOT NULL, writer TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS in_flight (key TEXT PRIMARY KEY, writer TEXT NOT NULL, started_at TEXT NOT NULL)`);
    return new EvidenceCache(db, dir, setup);
  }

  /** The cached evidence of each key found, by position in `keys`. */
  getMany(keys: readonly EvidenceKey[]): Map<number, unknown> {
    const { get } = this.statements;
    const out = new Map<number, unknown>();
    keys.forEach((k, i) => {
      const row = get.get(keyText(k));
      if (row) out.set(i, JSON.parse(row.evidence));
    });
    return out;
  }

  /**
   * Rows in one transaction. A key already present is left as it is (another process computed it first);
   * returns how many rows this call wrote.
   */
  putMany(entries: readonly EvidenceCacheEntry[], writer = `${process.pid}`): number {
    const { put, landed } = this.statements;
    const now = new Date().toISOString();
    return this.db.transaction(() => entries.reduce((n, e) => {
      const key = keyText(e.key);
      landed.run(key);
      return n + put.run(key, e.key.fingerprint, e.key.promptHash, e.key.contentHash, e.key.accessLevel, e.key.sampling, e.model, JSON.stringify(e.evidence), now, writer).changes;
    }, 0))();
  }

  /** Marks the rows about to be computed by `writer`; `putMany` of the same keys clears the marks. */
  begin(keys: readonly EvidenceKey[], writer = `${process.pid}`): void {
    const { mark } = this.statements;
    const now = new Date().toISOString();
    this.db.transaction(() => keys.forEach((k) => mark.run(keyText(k), writer, now)))();
  }

  /**
   * Of `keys`, those marked in flight by a process that no longer runs (it was stopped while computing them):
   * their marks are dropped and their number returned. Marks of a live process are left alone.
   */
  reclaim(keys: readonly EvidenceKey[]): number {
    const { writerInFlight: get, landed: drop } = this.statements;
    return this.db.transaction(() => keys.reduce((n, k) => {
      const row = get.get(keyText(k));
      if (!row || row.writer === `${process.pid}` || alive(row.writer)) return n;
      drop.run(keyText(k));
      return n + 1;
    }, 0))();
  }

  /** Rows marked in flight, per writer: after a kill, the killed process's are what it was computing. */
  inFlight(): Record<string, number> {
    return Object.fromEntries(this.statements.inFlight.all().map((r) => [r.writer, r.n]));
  }

  /** One line per model × prompt settings × access level. */
  list(): EvidenceCacheGroup[] {
    return this.statements.list.all();
  }

  /** Deletes the rows the filter matches (every row with no filter); returns how many. */
  prune(filter: PruneFilter = {}): number {
    const params: string[] = [];
    if (filter.model !== undefined) params.push(filter.model, filter.model);
    if (filter.before !== undefined) params.push(filter.before.toISOString());
    const statement = this.statements.prune[(filter.model !== undefined ? 1 : 0) + (filter.before !== undefined ? 2 : 0)]!;
    const changes = statement.run(...params).changes;
    this.statements.checkpoint.get();
    return changes;
  }

  /** Rows per writer (process), for tests and `cache list --writers`. */
  writers(): Record<string, number> {
    return Object.fromEntries(this.statements.writers.all().map((r) => [r.writer, r.n]));
  }

  close(): void {
    this.db.close();
  }
}
