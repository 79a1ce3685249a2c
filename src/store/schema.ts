// The tables of both services, in the SQL both engines share (TEXT JSON documents, BIGINT counters).
// `calibkit_schema` holds the version; a database of a newer version is refused, an older one migrated.
import type { Sql, SqlEngine } from "./sql.js";

// 2: profile_checkpoints (a profile's state in memory, written now and then, so a start reads no history).
// 3: PostgreSQL stores checkpoints uncompressed and events with lz4 (columnStorage below).
export const SCHEMA_VERSION = 3;

const TABLES: (string | ((engine: SqlEngine) => string))[] = [
  // A profile as created, and `head`: the sequence number of its last event (the row every writer locks).
  `CREATE TABLE IF NOT EXISTS profiles (name TEXT PRIMARY KEY, meta TEXT NOT NULL, head BIGINT NOT NULL, created_at TEXT NOT NULL)`,
  // Every change of a profile in the one order all instances see: example batches, audits, monitors.
  `CREATE TABLE IF NOT EXISTS profile_events (profile TEXT NOT NULL, seq BIGINT NOT NULL, kind TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (profile, seq))`,
  // The latest checkpoint of a profile: its state after event `seq`, in the service's own binary layout.
  (engine) => `CREATE TABLE IF NOT EXISTS profile_checkpoints (profile TEXT PRIMARY KEY, seq BIGINT NOT NULL, n BIGINT NOT NULL, data ${engine.kind === "postgres" ? "BYTEA" : "BLOB"} NOT NULL, written_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS idempotency_keys (scope TEXT NOT NULL, key TEXT NOT NULL, sha256 TEXT NOT NULL, ref TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (scope, key))`,
  `CREATE TABLE IF NOT EXISTS labelling_jobs (id TEXT PRIMARY KEY, profile TEXT NOT NULL, status TEXT NOT NULL, job TEXT NOT NULL, request TEXT NOT NULL, owner TEXT, lease_until BIGINT NOT NULL, updated_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS human_queue (id TEXT PRIMARY KEY, profile TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL, item TEXT NOT NULL, created_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS mail_sends (id TEXT PRIMARY KEY, record TEXT NOT NULL, idem_key TEXT UNIQUE, accepted_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS mail_messages (id TEXT PRIMARY KEY, send_id TEXT NOT NULL, ord INTEGER NOT NULL, recipient TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL, next_at BIGINT, last_error TEXT, updated_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, until_ms BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS mail_messages_by_send ON mail_messages (send_id, ord)`,
  `CREATE INDEX IF NOT EXISTS mail_messages_by_state ON mail_messages (state)`,
  `CREATE INDEX IF NOT EXISTS labelling_jobs_by_status ON labelling_jobs (status, lease_until)`,
  `CREATE INDEX IF NOT EXISTS human_queue_by_profile ON human_queue (profile, created_at)`,
];

/**
 * PostgreSQL's column storage, set again at every migration (idempotent). A checkpoint is mostly float64 columns
 * that pglz cannot shrink, yet it tried over three quarters of each one before storing it as it was: 0.5 s of
 * server CPU per 34 MB checkpoint, 0.16 s without. Event documents (JSON) compress about 2.5× with either
 * method; lz4 compresses them 3× faster than pglz and reads them back 1.5× faster (27 MB: 600 → 196 ms and
 * 87 → 57 ms). A server built without lz4 keeps pglz. Rows written before keep their compression.
 */
async function columnStorage(engine: SqlEngine, tx: Sql): Promise<void> {
  if (engine.kind !== "postgres") return;
  await tx.run(`ALTER TABLE profile_checkpoints ALTER COLUMN data SET STORAGE EXTERNAL`);
  const [lz4] = await tx.all<{ ok: boolean }>(`SELECT 'lz4' = ANY(enumvals) AS ok FROM pg_settings WHERE name = 'default_toast_compression'`);
  if (lz4?.ok) await tx.run(`ALTER TABLE profile_events ALTER COLUMN record SET COMPRESSION lz4`);
}

export async function migrate(engine: SqlEngine): Promise<void> {
  // A store already at this version (every start but the first) needs no write: a read says so, and the
  // start does not wait for a write transaction (SQLite's write thread, PostgreSQL's advisory lock).
  const current = await engine.all<{ version: number }>(`SELECT version FROM calibkit_schema WHERE id = 1`).catch(() => []);
  if (current.length === 1 && Number(current[0]!.version) === SCHEMA_VERSION) return;
  await engine.transaction(async (tx) => {
    // Two instances starting together on one PostgreSQL would race on CREATE TABLE; one goes at a time.
    if (engine.kind === "postgres") await tx.all(`SELECT pg_advisory_xact_lock(7275321)`);
    await tx.run(`CREATE TABLE IF NOT EXISTS calibkit_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`);
    const [row] = await tx.all<{ version: number }>(`SELECT version FROM calibkit_schema WHERE id = 1${engine.forUpdate}`);
    if (row && Number(row.version) > SCHEMA_VERSION) {
      throw new Error(`The store at ${engine.location} has schema version ${row.version}, newer than this calibkit's ${SCHEMA_VERSION}; upgrade calibkit`);
    }
    // Every version's tables are created if missing: an older store gains what it lacks (1 → 2: the
    // checkpoints table, empty, filled by the service as its profiles grow; 2 → 3: column storage), then its
    // version is raised.
    for (const statement of TABLES) await tx.run(typeof statement === "string" ? statement : statement(engine));
    await columnStorage(engine, tx);
    if (!row) await tx.run(`INSERT INTO calibkit_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [SCHEMA_VERSION]);
    else if (Number(row.version) < SCHEMA_VERSION) await tx.run(`UPDATE calibkit_schema SET version = $1 WHERE id = 1`, [SCHEMA_VERSION]);
  });
}
