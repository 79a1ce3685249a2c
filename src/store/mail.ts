// Mail sends and their messages: a send's rendered document once, each message's delivery state updated in
// place. The Idempotency-Key of a send is unique in the table, so two instances cannot both accept it.
import { isUniqueViolation } from "./errors.js";
import type { Sql, SqlEngine } from "./sql.js";

export interface MailAccept {
  id: string;
  record: unknown;
  acceptedAt: string;
  idempotencyKey?: string | undefined;
  messages: { id: string; to: string }[];
}

export interface MailStateChange {
  id: string;
  state: string;
  attempts: number;
  nextAt?: number | undefined;
  lastError?: string | undefined;
  updatedAt: string;
}

export interface StoredMessage {
  id: string;
  sendId: string;
  state: string;
  attempts: number;
  nextAt: number | undefined;
  lastError: string | undefined;
  updatedAt: string;
}

export class MailTable {
  constructor(private readonly db: SqlEngine) {}

  /**
   * Writes accepted sends and state changes in one transaction, committed before it resolves. A send whose
   * Idempotency-Key is already stored is left out and reported with the id of the stored one.
   */
  async write(accepts: readonly MailAccept[], changes: readonly MailStateChange[]): Promise<{ taken: Map<string, string> }> {
    const taken = new Map<string, string>();
    await this.db.transaction(async (tx) => {
      for (const a of accepts) {
        if (a.idempotencyKey !== undefined && !(await this.insertKeyed(tx, a))) {
          const [row] = await tx.all<{ id: string }>(`SELECT id FROM mail_sends WHERE idem_key = $1`, [a.idempotencyKey]);
          taken.set(a.id, row!.id);
          continue;
        }
        if (a.idempotencyKey === undefined) {
          await tx.run(`INSERT INTO mail_sends (id, record, idem_key, accepted_at) VALUES ($1, $2, NULL, $3)`, [a.id, JSON.stringify(a.record), a.acceptedAt]);
        }
        await tx.runMany(`INSERT INTO mail_messages (id, send_id, ord, recipient, state, attempts, next_at, last_error, updated_at) VALUES ($1, $2, $3, $4, 'pending', 0, NULL, NULL, $5)`,
          a.messages.map((m, ord) => [m.id, a.id, ord, m.to, a.acceptedAt]));
      }
      await tx.runMany(`UPDATE mail_messages SET state = $2, attempts = $3, next_at = $4, last_error = $5, updated_at = $6 WHERE id = $1`,
        changes.map((c) => [c.id, c.state, c.attempts, c.nextAt ?? null, c.lastError ?? null, c.updatedAt]));
    });
    return { taken };
  }

  /** Inserts a keyed send inside a savepoint, so a taken key does not abort the whole transaction. */
  private async insertKeyed(tx: Sql, a: MailAccept): Promise<boolean> {
    await tx.run(`SAVEPOINT keyed`);
    try {
      await tx.run(`INSERT INTO mail_sends (id, record, idem_key, accepted_at) VALUES ($1, $2, $3, $4)`, [a.id, JSON.stringify(a.record), a.idempotencyKey, a.acceptedAt]);
      await tx.run(`RELEASE SAVEPOINT keyed`);
      return true;
    } catch (err) {
      await tx.run(`ROLLBACK TO SAVEPOINT keyed`);
      await tx.run(`RELEASE SAVEPOINT keyed`);
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Which of these sends are stored (the import of an old journal skips them). */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.all<{ id: string }>(`SELECT id FROM mail_sends WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(", ")})`, ids);
    return new Set(rows.map((r) => r.id));
  }

  /** Every send's document, in acceptance order. */
  async sends(): Promise<unknown[]> {
    const rows = await this.db.all<{ record: string }>(`SELECT record FROM mail_sends ORDER BY accepted_at, id`);
    return rows.map((r) => JSON.parse(r.record));
  }

  /** Messages that moved past `pending`: their current state. */
  async movedMessages(): Promise<StoredMessage[]> {
    const rows = await this.db.all<{ id: string; send_id: string; state: string; attempts: number; next_at: number | null; last_error: string | null; updated_at: string }>(
      `SELECT id, send_id, state, attempts, next_at, last_error, updated_at FROM mail_messages WHERE state <> 'pending'`);
    return rows.map((r) => ({
      id: r.id, sendId: r.send_id, state: r.state, attempts: Number(r.attempts), nextAt: r.next_at === null ? undefined : Number(r.next_at),
      lastError: r.last_error ?? undefined, updatedAt: r.updated_at,
    }));
  }
}
