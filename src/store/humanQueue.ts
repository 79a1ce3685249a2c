// Items waiting for a person (cascade escalations, labelling reviews): one row each, the item's document
// as the service shapes it, with the columns lists filter on.
import type { SqlEngine } from "./sql.js";

export interface HumanQueueRow {
  id: string;
  profile: string;
  kind: string;
  status: string;
  created_at: string;
  item: unknown;
}

export class HumanQueueTable {
  constructor(private readonly db: SqlEngine) {}

  /** Stores the items in one transaction (all or none). */
  async insert(items: readonly HumanQueueRow[]): Promise<void> {
    await this.db.runMany(`INSERT INTO human_queue (id, profile, kind, status, item, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
      items.map((i) => [i.id, i.profile, i.kind, i.status, JSON.stringify(i.item), i.created_at]));
  }

  /** Replaces an item's document (and status) when it exists; false otherwise. */
  async update(id: string, status: string, item: unknown): Promise<boolean> {
    return (await this.db.transaction((tx) => tx.run(`UPDATE human_queue SET status = $2, item = $3 WHERE id = $1`, [id, status, JSON.stringify(item)]))) > 0;
  }

  async get(id: string): Promise<unknown> {
    const [row] = await this.db.all<{ item: string }>(`SELECT item FROM human_queue WHERE id = $1`, [id]);
    return row ? JSON.parse(row.item) : undefined;
  }

  /** Items in creation order, filtered by profile, kind and status when given. */
  async list(filter: { profile?: string | null; kind?: string | null; status?: string | null } = {}, limit = 10_000): Promise<unknown[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const column of ["profile", "kind", "status"] as const) {
      const value = filter[column];
      if (value) {
        params.push(value);
        where.push(`${column} = $${params.length}`);
      }
    }
    params.push(limit);
    const rows = await this.db.all<{ item: string }>(
      `SELECT item FROM human_queue${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at, id LIMIT $${params.length}`, params);
    return rows.map((r) => JSON.parse(r.item));
  }
}
