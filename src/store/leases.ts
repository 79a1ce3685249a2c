// Named leases: the one holder of a role (the mail queue's deliverer) across every process on a store. A
// holder renews its lease; a lease that was not renewed in time, or whose holder the caller knows to be gone,
// passes to the next one who asks. Unlike a PID file, a restarted container that got its old PID back only
// waits for the lease to run out, and two starters cannot both win (the row is taken in one transaction).
import type { SqlEngine } from "./sql.js";

export interface LeaseHolder {
  owner: string;
  host: string;
  pid: number;
}

export class LeaseTable {
  constructor(private readonly db: SqlEngine) {}

  /** Takes the lease for `ttlMs`; else resolves with its current holder. */
  async acquire(name: string, me: LeaseHolder, ttlMs: number, gone: (holder: LeaseHolder) => boolean): Promise<{ held: true } | { held: false; holder: LeaseHolder; until: number }> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.all<{ owner: string; host: string; pid: number; until_ms: number }>(
        `SELECT owner, host, pid, until_ms FROM leases WHERE name = $1${this.db.forUpdate}`, [name]);
      const now = Date.now();
      if (row && row.owner !== me.owner && Number(row.until_ms) > now && !gone({ owner: row.owner, host: row.host, pid: Number(row.pid) })) {
        return { held: false as const, holder: { owner: row.owner, host: row.host, pid: Number(row.pid) }, until: Number(row.until_ms) };
      }
      await tx.run(`INSERT INTO leases (name, owner, host, pid, until_ms) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (name) DO UPDATE SET owner = $2, host = $3, pid = $4, until_ms = $5`, [name, me.owner, me.host, me.pid, now + ttlMs]);
      return { held: true as const };
    });
  }

  /** Extends a lease this owner holds; false when it lost it. */
  async renew(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.db.transaction((tx) => tx.run(`UPDATE leases SET until_ms = $3 WHERE name = $1 AND owner = $2`, [name, owner, Date.now() + ttlMs]))) > 0;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.db.transaction((tx) => tx.run(`DELETE FROM leases WHERE name = $1 AND owner = $2`, [name, owner]));
  }
}
