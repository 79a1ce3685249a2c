// openStore: the storage both services keep their state in. `postgres://…` (from --store or CALIBKIT_STORE)
// opens PostgreSQL, shared by every instance given the same URL; anything else is the embedded default,
// SQLite in `<data dir>/calibkit.db`.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { HumanQueueTable } from "./humanQueue.js";
import { JobTable } from "./jobs.js";
import { LeaseTable } from "./leases.js";
import { MailTable } from "./mail.js";
import { ProfileTable } from "./profiles.js";
import { migrate } from "./schema.js";
import type { SqlEngine } from "./sql.js";

export const SQLITE_FILE = "calibkit.db";

export interface StoreOptions {
  /** A `postgres://` / `postgresql://` URL; absent: SQLite in `dataDir`. */
  url?: string | undefined;
  /** The data folder of the embedded engine. */
  dataDir?: string | undefined;
}

export interface Store {
  readonly engine: "sqlite" | "postgres";
  /** Where the data lives (a file or a URL without its password). */
  readonly location: string;
  readonly profiles: ProfileTable;
  readonly jobs: JobTable;
  readonly humanQueue: HumanQueueTable;
  readonly mail: MailTable;
  readonly leases: LeaseTable;
  /** Calls `fn` when another instance changed something: `profile:<name>`, or `*` (re-check everything). */
  onChange(fn: (what: string) => void): Promise<void>;
  close(): Promise<void>;
}

export const isPostgresUrl = (value: string | undefined): value is string => !!value && /^postgres(ql)?:\/\//i.test(value);

export async function openStore(options: StoreOptions): Promise<Store> {
  let engine: SqlEngine;
  // Each driver is loaded only for its own store: pg (about 0.13 s of every start otherwise), better-sqlite3
  // (about 15 ms of every PostgreSQL start).
  if (isPostgresUrl(options.url)) engine = await (await import("./postgres.js")).PostgresEngine.open(options.url);
  else {
    if (options.url) throw new Error(`--store ${options.url} is not a postgres:// URL; leave it out for the embedded SQLite store in --data`);
    const dir = resolve(options.dataDir ?? ".calibkit/service");
    mkdirSync(dir, { recursive: true });
    engine = await (await import("./sqlite.js")).SqliteEngine.open(join(dir, SQLITE_FILE));
  }
  try {
    await migrate(engine);
  } catch (err) {
    await engine.close().catch(() => undefined);
    throw err;
  }
  return {
    engine: engine.kind,
    location: engine.location,
    profiles: new ProfileTable(engine),
    jobs: new JobTable(engine),
    humanQueue: new HumanQueueTable(engine),
    mail: new MailTable(engine),
    leases: new LeaseTable(engine),
    onChange: (fn) => engine.listen(fn),
    close: () => engine.close(),
  };
}
