// Background jobs (label-with-judge) as rows: the job's public document, the request that made it, and a
// lease. An instance runs a job only while it holds the lease; a job whose lease ran out (its instance died)
// is claimed by another one, with SKIP LOCKED on PostgreSQL so two instances never claim the same row.
import type { SqlEngine } from "./sql.js";

export interface StoredJob {
  id: string;
  profile: string;
  status: string;
  job: unknown;
  request: unknown;
  owner: string | null;
  leaseUntil: number;
}

interface JobRow { id: string; profile: string; status: string; job: string; request: string; owner: string | null; lease_until: number }

const jobOf = (r: JobRow): StoredJob => ({
  id: r.id, profile: r.profile, status: r.status, job: JSON.parse(r.job), request: JSON.parse(r.request), owner: r.owner, leaseUntil: Number(r.lease_until),
});

const COLUMNS = `id, profile, status, job, request, owner, lease_until`;

export class JobTable {
  constructor(private readonly db: SqlEngine) {}

  /** Stores a new job, leased to `owner` until `leaseUntil` (epoch ms). */
  async insert(job: { id: string; profile: string; status: string; updatedAt: string }, document: unknown, request: unknown, owner: string, leaseUntil: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(`INSERT INTO labelling_jobs (${COLUMNS}, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [job.id, job.profile, job.status, JSON.stringify(document), JSON.stringify(request), owner, leaseUntil, job.updatedAt]);
    });
  }

  /** Saves the job's document while `owner` holds it; false when the lease passed to another instance. */
  async update(id: string, status: string, document: unknown, owner: string, leaseUntil: number, updatedAt: string): Promise<boolean> {
    const n = await this.db.transaction((tx) => tx.run(
      `UPDATE labelling_jobs SET status = $2, job = $3, lease_until = $5, updated_at = $6 WHERE id = $1 AND owner = $4`,
      [id, status, JSON.stringify(document), owner, leaseUntil, updatedAt]));
    return n > 0;
  }

  async get(id: string): Promise<StoredJob | undefined> {
    const [row] = await this.db.all<JobRow>(`SELECT ${COLUMNS} FROM labelling_jobs WHERE id = $1`, [id]);
    return row ? jobOf(row) : undefined;
  }

  /** Takes one unfinished job whose lease ran out, for `owner` until `leaseUntil`. */
  async claimExpired(owner: string, now: number, leaseUntil: number): Promise<StoredJob | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.all<JobRow>(
        `SELECT ${COLUMNS} FROM labelling_jobs WHERE status IN ('queued', 'running') AND lease_until < $1 ORDER BY lease_until LIMIT 1${this.db.forUpdate}${this.db.skipLocked}`, [now]);
      if (!row) return undefined;
      await tx.run(`UPDATE labelling_jobs SET owner = $2, lease_until = $3 WHERE id = $1`, [row.id, owner, leaseUntil]);
      return jobOf({ ...row, owner, lease_until: leaseUntil });
    });
  }
}
