// Profiles as the store keeps them: the creation document, and every later change as an event numbered
// under the profile row's lock, so concurrent writers through any instance get one order. The documents
// are the service's own records (JSON); the store reads only the columns it indexes.
import { isUniqueViolation } from "./errors.js";
import type { SqlEngine } from "./sql.js";

export interface StoredProfile {
  name: string;
  meta: unknown;
  /** Sequence number of the profile's last event (0: none yet). */
  head: number;
}

export interface ProfileEvent {
  readonly seq: number;
  /** The record, parsed from `text` when first read. */
  readonly record: unknown;
  /** The record's JSON as stored (a caller may keep it rather than the parsed record: one string, not a tree). */
  readonly text: string;
}

/**
 * An event read from the store, parsed when first asked: a caller that applies many one at a time, dropping
 * each, holds one parsed document at a time rather than all of them (tens of megabytes after a crash).
 */
class StoredEvent implements ProfileEvent {
  private parsed: unknown;
  constructor(readonly seq: number, readonly text: string) {}
  get record(): unknown {
    return (this.parsed ??= JSON.parse(this.text));
  }
}

/** What a writer appends: one record, and the idempotency key it answers (unique per profile in the store). */
export interface NewEvent {
  kind: string;
  record: unknown;
  /** `JSON.stringify(record)`, when the caller has made it already (it keeps the same string). */
  text?: string | undefined;
  idempotency?: { key: string; sha256: string } | undefined;
}

const profileOf = (row: { name: string; meta: string; head: number }): StoredProfile => ({ name: row.name, meta: JSON.parse(row.meta), head: Number(row.head) });

/** Bytes of a checkpoint written at a time to PostgreSQL. */
const CHECKPOINT_PIECE = 4 << 20;

export class ProfileTable {
  constructor(private readonly db: SqlEngine) {}

  async list(): Promise<StoredProfile[]> {
    const rows = await this.db.all<{ name: string; meta: string; head: number }>(`SELECT name, meta, head FROM profiles ORDER BY name`);
    return rows.map(profileOf);
  }

  async get(name: string): Promise<StoredProfile | undefined> {
    const [row] = await this.db.all<{ name: string; meta: string; head: number }>(`SELECT name, meta, head FROM profiles WHERE name = $1`, [name]);
    return row ? profileOf(row) : undefined;
  }

  /** Heads of every profile: how an instance finds what others changed. */
  async heads(): Promise<Map<string, number>> {
    const rows = await this.db.all<{ name: string; head: number }>(`SELECT name, head FROM profiles`);
    return new Map(rows.map((r) => [r.name, Number(r.head)]));
  }

  /** Creates the profile, or returns the one already stored under that name (`created: false`). */
  async create(name: string, meta: unknown, createdAt: string): Promise<{ created: boolean; profile: StoredProfile }> {
    const inserted = await this.db.transaction(async (tx) => {
      const n = await tx.run(`INSERT INTO profiles (name, meta, head, created_at) VALUES ($1, $2, 0, $3) ON CONFLICT (name) DO NOTHING`, [name, JSON.stringify(meta), createdAt]);
      if (n > 0) await this.db.notify(tx, `profile:${name}`);
      return n > 0;
    });
    const profile = await this.get(name);
    if (!profile) throw new Error(`profile ${name} vanished after its creation`);
    return { created: inserted, profile };
  }

  /** Events after `afterSeq` (up to `upToSeq` when given), in order. */
  async events(name: string, afterSeq: number, limit = 1_000_000_000, upToSeq = Number.MAX_SAFE_INTEGER): Promise<ProfileEvent[]> {
    const rows = await this.db.all<{ seq: number; record: string }>(
      `SELECT seq, record FROM profile_events WHERE profile = $1 AND seq > $2 AND seq <= $4 ORDER BY seq LIMIT $3`, [name, afterSeq, limit, upToSeq]);
    return rows.map((r) => new StoredEvent(Number(r.seq), r.record));
  }

  /** The event the profile's latest checkpoint was taken after (one small row), or undefined when it has none. */
  async checkpointSeq(name: string): Promise<number | undefined> {
    const [row] = await this.db.all<{ seq: number }>(`SELECT seq FROM profile_checkpoints WHERE profile = $1`, [name]);
    return row ? Number(row.seq) : undefined;
  }

  /** The profile's latest checkpoint: its state after event `seq`, as the service wrote it. */
  async checkpoint(name: string): Promise<{ seq: number; n: number; data: Uint8Array } | undefined> {
    if (this.db.copyRow) return this.checkpointCopied(name);
    const [row] = await this.db.all<{ seq: number; n: number; data: Uint8Array }>(`SELECT seq, n, data FROM profile_checkpoints WHERE profile = $1`, [name]);
    return row ? { seq: Number(row.seq), n: Number(row.n), data: row.data } : undefined;
  }

  /**
   * PostgreSQL sends a bytea as hex text, twice its size, and node-postgres gathers a row's message whole before
   * decoding it: a checkpoint of 70 MB read in one row took seconds of copying on the event loop, and in base64
   * pieces of 4 MiB (each checked to be of the same checkpoint) 1–2.5 s. Read by COPY in binary instead: its
   * bytes as they are, streamed into one array, seq, n and data from one statement and so one snapshot (a newer
   * checkpoint written meanwhile is not seen, never mixed in).
   */
  private async checkpointCopied(name: string): Promise<{ seq: number; n: number; data: Uint8Array } | undefined> {
    const row = await this.db.copyRow!(`SELECT seq, n, data FROM profile_checkpoints WHERE profile = $1`, name);
    if (!row) return undefined;
    const [seq, n, data] = row as [Uint8Array, Uint8Array, Uint8Array];
    const bigint = (b: Uint8Array) => Number(Buffer.from(b.buffer, b.byteOffset, b.byteLength).readBigInt64BE(0));
    return { seq: bigint(seq), n: bigint(n), data };
  }

  /**
   * Keeps `data` as the profile's checkpoint unless one of a later event is there already (another instance's).
   * `data` is handed over to the store (SQLite moves its memory to its thread): the caller must not reuse it.
   * One of the same event is replaced: the new one holds more (calibrations that queries have built since).
   */
  async saveCheckpoint(name: string, seq: number, n: number, data: Uint8Array): Promise<boolean> {
    if (this.db.kind === "postgres" && data.byteLength > CHECKPOINT_PIECE) return this.saveCheckpointInPieces(name, seq, n, data);
    const changed = await this.db.run(
      `INSERT INTO profile_checkpoints (profile, seq, n, data, written_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (profile) DO UPDATE SET seq = excluded.seq, n = excluded.n, data = excluded.data, written_at = excluded.written_at
       WHERE profile_checkpoints.seq <= excluded.seq`,
      [name, seq, n, Buffer.from(data.buffer, data.byteOffset, data.byteLength), new Date().toISOString()], { handOver: true });
    return changed > 0;
  }

  /**
   * node-postgres copies a parameter into its message on the event loop, growing its buffer by doubling: a 100 MB
   * checkpoint sent as one parameter stalled every request for a few hundred milliseconds. Sent as pieces of
   * CHECKPOINT_PIECE bytes into a table of the transaction instead (each copy a few milliseconds, the loop free
   * between them), joined by PostgreSQL into the checkpoint row at commit.
   */
  private async saveCheckpointInPieces(name: string, seq: number, n: number, data: Uint8Array): Promise<boolean> {
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return this.db.transaction(async (tx) => {
      await tx.run(`CREATE TEMPORARY TABLE checkpoint_pieces (at bigint PRIMARY KEY, piece bytea NOT NULL) ON COMMIT DROP`);
      // Uncompressed, as the checkpoint itself (schema.ts, columnStorage): pglz would try each piece in vain.
      await tx.run(`ALTER TABLE checkpoint_pieces ALTER COLUMN piece SET STORAGE EXTERNAL`);
      for (let at = 0; at < bytes.length; at += CHECKPOINT_PIECE) {
        await tx.run(`INSERT INTO checkpoint_pieces (at, piece) VALUES ($1, $2)`, [at, bytes.subarray(at, at + CHECKPOINT_PIECE)]);
      }
      const changed = await tx.run(
        `INSERT INTO profile_checkpoints (profile, seq, n, data, written_at)
         SELECT $1, $2, $3, string_agg(piece, ''::bytea ORDER BY at), $4 FROM checkpoint_pieces
         ON CONFLICT (profile) DO UPDATE SET seq = excluded.seq, n = excluded.n, data = excluded.data, written_at = excluded.written_at
         WHERE profile_checkpoints.seq <= excluded.seq`,
        [name, seq, n, new Date().toISOString()]);
      return changed > 0;
    });
  }

  /**
   * Appends one event under the profile's row lock. `build` first receives the events other writers committed
   * after `knownHead` (the caller applies them, then decides on the state they lead to) and returns the new
   * event, or undefined to write nothing. Resolves once the event is committed durably.
   *
   * On PostgreSQL `build` is first called with no events, as if none were missed, and its event appended by one
   * statement that does so only if the head is still `knownHead` (appendAtHead); when it is not, or `build` wrote
   * nothing or threw, `build` is called again as above (it must be free of effects outside what it returns).
   */
  async append<T>(name: string, knownHead: number, build: (missed: ProfileEvent[]) => Promise<{ event?: NewEvent | undefined; value: T }>): Promise<{ seq: number | undefined; value: T }> {
    if (this.db.kind === "postgres") {
      const appended = await this.appendAtHead(name, knownHead, build);
      if (appended) return appended;
    }
    return this.db.transaction(async (tx) => {
      const [row] = await tx.all<{ head: number }>(`SELECT head FROM profiles WHERE name = $1${this.db.forUpdate}`, [name]);
      if (!row) throw new Error(`profile ${name} is not in the store`);
      const head = Number(row.head);
      const missed = head > knownHead
        ? (await tx.all<{ seq: number; record: string }>(`SELECT seq, record FROM profile_events WHERE profile = $1 AND seq > $2 ORDER BY seq`, [name, knownHead]))
            .map((r) => new StoredEvent(Number(r.seq), r.record))
        : [];
      const { event, value } = await build(missed);
      if (!event) return { seq: undefined, value };
      const seq = head + 1;
      if (event.idempotency) {
        try {
          await tx.run(`INSERT INTO idempotency_keys (scope, key, sha256, ref, created_at) VALUES ($1, $2, $3, $4, $5)`,
            [`profile:${name}`, event.idempotency.key, event.idempotency.sha256, String(seq), new Date().toISOString()]);
        } catch (err) {
          if (isUniqueViolation(err)) throw new IdempotencyKeyTaken(event.idempotency.key);
          throw err;
        }
      }
      await tx.run(`INSERT INTO profile_events (profile, seq, kind, record) VALUES ($1, $2, $3, $4)`, [name, seq, event.kind, event.text ?? JSON.stringify(event.record)]);
      await tx.run(`UPDATE profiles SET head = $2 WHERE name = $1`, [name, seq]);
      await this.db.notify(tx, `profile:${name}@${seq}`);
      return { seq, value };
    });
  }

  /**
   * A transaction of its own took 7 round trips to PostgreSQL per batch (BEGIN, the row lock, the idempotency
   * key, the event, the head, NOTIFY, COMMIT), each a turn of the event loop and a wait on a shared machine. When
   * this instance is at the head — always, but for other instances' writes — one statement does it all: it moves
   * the head only if it is still `knownHead` (PostgreSQL re-checks that condition on the row as committed by a
   * concurrent writer it waited for), and its key, event and notice follow from that row; committed on its own,
   * durably, before it answers. Undefined when the head had moved (nothing written) or `build` wrote nothing or
   * threw: the caller goes the locked way.
   */
  private async appendAtHead<T>(name: string, knownHead: number, build: (missed: ProfileEvent[]) => Promise<{ event?: NewEvent | undefined; value: T }>): Promise<{ seq: number; value: T } | undefined> {
    let built: { event?: NewEvent | undefined; value: T };
    try {
      built = await build([]);
    } catch {
      return undefined;
    }
    const { event, value } = built;
    if (!event) return undefined;
    const key = event.idempotency;
    let rows: { head: number }[];
    try {
      rows = await this.db.all<{ head: number }>(
        `WITH h AS (UPDATE profiles SET head = head + 1 WHERE name = $1 AND head = $2 RETURNING head),
           k AS (INSERT INTO idempotency_keys (scope, key, sha256, ref, created_at) SELECT $3, $4, $5, head::text, $6 FROM h WHERE $4::text IS NOT NULL),
           e AS (INSERT INTO profile_events (profile, seq, kind, record) SELECT $1, head, $7, $8 FROM h)
         SELECT head, pg_notify($9, $10 || head) FROM h`,
        [name, knownHead, `profile:${name}`, key?.key ?? null, key?.sha256 ?? null, new Date().toISOString(), event.kind, event.text ?? JSON.stringify(event.record), this.db.channel!, `profile:${name}@`]);
    } catch (err) {
      if (key && isUniqueViolation(err) && (err as { table?: string }).table === "idempotency_keys") throw new IdempotencyKeyTaken(key.key);
      throw err;
    }
    return rows.length === 1 ? { seq: Number(rows[0]!.head), value } : undefined;
  }

  /** The idempotency key as stored for a profile (kept forever, unlike the answers the service remembers). */
  async idempotencyKey(name: string, key: string): Promise<{ sha256: string; seq: number } | undefined> {
    const [row] = await this.db.all<{ sha256: string; ref: string }>(`SELECT sha256, ref FROM idempotency_keys WHERE scope = $1 AND key = $2`, [`profile:${name}`, key]);
    return row ? { sha256: row.sha256, seq: Number(row.ref) } : undefined;
  }
}

/** An Idempotency-Key already stored for this profile (its batch is in the events the caller missed). */
export class IdempotencyKeyTaken extends Error {
  override name = "IdempotencyKeyTaken";
  constructor(readonly key: string) {
    super(`Idempotency-Key ${key} is already stored`);
  }
}
