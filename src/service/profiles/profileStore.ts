// Profiles on disk: DATA/profiles/<name>/profile.json (the creation snapshot, atomic) and wal.jsonl (every
// change since). Writers to one profile are serialised by a per-profile mutex; a change is appended and
// fsynced before it is applied in memory and acknowledged, so memory never runs ahead of the disk.
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { CreateProfile } from "../../api/index.js";
import { canonicalJson } from "../canonicalJson.js";
import { conflict, invalidField, notFound } from "../errors.js";
import { fsyncDir, removeStaleTemporaries, writeFileAtomic } from "../../durable/index.js";
import { KeyedMutex } from "../store/mutex.js";
import { WriteAheadLog } from "../store/wal.js";
import { ProfileState } from "./profileState.js";
import type { ProfileMeta, ProfileRecord } from "./records.js";

interface OpenProfile {
  state: ProfileState;
  wal: WriteAheadLog<ProfileRecord>;
}

export class ProfileStore {
  private readonly profiles = new Map<string, OpenProfile>();
  private readonly mutex = new KeyedMutex();
  private closed = false;

  private constructor(private readonly dir: string) {}

  static async open(dataDir: string, log: (line: string) => void): Promise<ProfileStore> {
    const store = new ProfileStore(join(dataDir, "profiles"));
    await mkdir(store.dir, { recursive: true });
    for (const name of (await readdir(store.dir)).sort()) {
      const dir = join(store.dir, name);
      if (!(await stat(dir)).isDirectory()) continue;
      await removeStaleTemporaries(dir);
      const metaText = await readFile(join(dir, "profile.json"), "utf8").catch(() => undefined);
      if (metaText === undefined) {
        // Created up to the directory but never acknowledged (no snapshot): nothing to keep.
        await rm(dir, { recursive: true, force: true });
        continue;
      }
      const state = new ProfileState(JSON.parse(metaText) as ProfileMeta);
      const { wal, recovery } = await WriteAheadLog.open<ProfileRecord>(join(dir, "wal.jsonl"));
      for (const record of recovery.records) state.apply(record);
      if (recovery.truncatedBytes > 0) log(`profile ${name}: cut a torn tail of ${recovery.truncatedBytes} bytes from its log (an unacknowledged write)`);
      if (recovery.skippedLines.length > 0) log(`profile ${name}: skipped corrupt log lines ${recovery.skippedLines.join(", ")}`);
      store.profiles.set(state.name, { state, wal });
    }
    return store;
  }

  list(): ProfileState[] {
    return [...this.profiles.values()].map((p) => p.state).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  find(name: string): ProfileState | undefined {
    return this.profiles.get(name)?.state;
  }

  get(name: string, field?: string): ProfileState {
    const state = this.find(name);
    if (!state) throw notFound(`No calibration profile named "${name}"; create it with POST /calibration-profiles`, field);
    return state;
  }

  /** Creates a profile; re-creating one with the same definition returns it (201 → 200), a different one is 409. */
  async create(request: CreateProfile, now = new Date()): Promise<{ state: ProfileState; created: boolean }> {
    return this.mutex.run(`create:${request.name}`, async () => {
      const backendFingerprint = (request.backend as { fingerprint?: unknown }).fingerprint;
      const meta: ProfileMeta = {
        name: request.name,
        backend: request.backend,
        method: request.method,
        alpha: request.alpha,
        strict_fingerprint: request.strict_fingerprint,
        group_by: request.group_by,
        prompt_template_hash: request.prompt_template_hash,
        backend_fingerprint: typeof backendFingerprint === "string" ? backendFingerprint : undefined,
        created_at: now.toISOString(),
      };
      const existing = this.profiles.get(request.name);
      if (existing) {
        if (sameDefinition(existing.state.meta, meta)) return { state: existing.state, created: false };
        throw conflict(`A calibration profile named "${request.name}" already exists with another definition`);
      }
      const state = newProfileState(meta); // validates alpha (minimum_n) before anything touches the disk
      const dir = join(this.dir, request.name);
      await mkdir(dir, { recursive: true });
      const { wal } = await WriteAheadLog.open<ProfileRecord>(join(dir, "wal.jsonl"));
      try {
        await writeFileAtomic(join(dir, "profile.json"), JSON.stringify(meta));
        await fsyncDir(this.dir);
      } catch (err) {
        await wal.close();
        throw err;
      }
      this.profiles.set(request.name, { state, wal });
      return { state, created: true };
    });
  }

  /**
   * Runs `prepare` on the profile under its lock; the record it returns is appended durably, then applied.
   * `prepare` validates and may throw: nothing is written then.
   */
  async change<T>(name: string, prepare: (state: ProfileState) => Promise<{ record?: ProfileRecord; result: (state: ProfileState) => T }>): Promise<T> {
    return this.mutex.run(name, async () => {
      if (this.closed) throw new Error("the profile store is closed");
      const open = this.profiles.get(name);
      if (!open) throw notFound(`No calibration profile named "${name}"`);
      const { record, result } = await prepare(open.state);
      if (record) {
        await open.wal.append(record);
        open.state.apply(record);
      }
      return result(open.state);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.mutex.drain();
    for (const { wal } of this.profiles.values()) await wal.close();
  }
}

function sameDefinition(a: ProfileMeta, b: ProfileMeta): boolean {
  const strip = ({ created_at: _c, ...rest }: ProfileMeta) => canonicalJson(rest);
  return strip(a) === strip(b);
}

/** A new profile's state; an alpha too small for any calibration is a 422 at the request's `alpha`. */
function newProfileState(meta: ProfileMeta): ProfileState {
  try {
    return new ProfileState(meta);
  } catch (err) {
    if (!(err instanceof Error) || err.name !== "ConformalError") throw err;
    throw invalidField("alpha", `\`alpha\` ${meta.alpha} is too small: a calibration needs at least ⌈(1−α)/α⌉ examples, and no profile of up to 10,000,000 examples reaches coverage within ±0.02 of 1−α; use a larger alpha`);
  }
}
