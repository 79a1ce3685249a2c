// Profiles in memory over the store: each profile's state is its creation document plus its stored events
// applied in order. A change is written as one event under the profile's row lock (after catching up with
// what other instances wrote), committed durably, and only then applied here and acknowledged, so memory
// never runs ahead of the store. Changes made by other instances arrive as store notices and are applied
// in the background.
//
// Start-up does not wait for the profiles: it lists them and reads each one's checkpoint and the events after
// it in the background, one at a time (loadQueue.ts), so the service listens at once whatever their size. A
// request for a profile not read yet has it read next, at once, and waits for it (async routes) or is answered
// 503 with retry-after (evaluate, which does not wait).
// The examples before a checkpoint stay in the store until a query needs them (earlierExamples.ts;
// checkpoint.ts says what a checkpoint holds, checkpointWriter.ts when one is written).
import type { CreateProfile } from "../../api/index.js";
import type { Store } from "../../store/index.js";
import { canonicalJson } from "../canonicalJson.js";
import { conflict, invalidField, notFound, ServiceError } from "../errors.js";
import { KeyedMutex } from "../store/mutex.js";
import { CheckpointWriter } from "./checkpointWriter.js";
import { EarlierExamples } from "./earlierExamples.js";
import { feedPools } from "./eagerPools.js";
import { LoadQueue } from "./loadQueue.js";
import { readProfile } from "./readProfile.js";
import { startRebuilds, untilNoBuildAwaited } from "../engine/rebuilds.js";
import { heldBatchOf, type HeldBatch } from "./heldExamples.js";
import { ProfileState } from "./profileState.js";
import type { ProfileMeta, ProfileRecord } from "./records.js";

/**
 * How long a start, and each read a request asked for, leave the store to the profiles that requests ask for
 * before the others are read: a service restarted behind a load balancer is asked at once, and a profile of a
 * million examples read beside another one, or its first calibrations built beside it, took 0.2–0.3 s longer.
 */
const LOAD_GRACE_MS = 250;

export interface ProfileStoreOptions {
  /** Fewest new examples that make a new checkpoint worth writing. Default 10,000. */
  checkpointEvery?: number | undefined;
}

export class ProfileStore {
  private readonly profiles = new Map<string, ProfileState>();
  /** Profiles listed at start and not read yet (queued, or being read). */
  private readonly loading = new Map<string, Promise<ProfileState>>();
  /** The order they are read in: a request for one still queued has it read at once. */
  private readonly queue = new LoadQueue<ProfileState>(LOAD_GRACE_MS, untilNoBuildAwaited);
  private loadedAll: Promise<void> = Promise.resolve();
  private readonly mutex = new KeyedMutex();
  private closed = false;
  private readonly checkpoints: CheckpointWriter;
  private readonly earlier: EarlierExamples;

  private constructor(private readonly store: Store, private readonly log: (line: string) => void, options: ProfileStoreOptions) {
    this.checkpoints = new CheckpointWriter(store, log, () => this.profiles.values(), options.checkpointEvery);
    this.earlier = new EarlierExamples(store, log);
  }

  static async open(store: Store, log: (line: string) => void, options: ProfileStoreOptions = {}): Promise<ProfileStore> {
    const profiles = new ProfileStore(store, log, options);
    const listed = await store.profiles.list();
    const loads = listed.map((stored) => profiles.enqueue(stored.name, stored.meta as ProfileMeta).catch(() => undefined));
    profiles.loadedAll = Promise.all(loads).then(() => undefined);
    profiles.queue.next();
    await store.onChange((what) => profiles.noticed(what));
    return profiles;
  }

  /** Queues a listed profile to be read; resolves with it once read. */
  private enqueue(name: string, meta: ProfileMeta): Promise<ProfileState> {
    const loaded = this.queue.enqueue(name, () => this.mutex.run(name, () => this.load(name, meta)));
    this.loading.set(name, loaded);
    loaded.then(() => this.loading.delete(name), (err: unknown) => {
      this.loading.delete(name);
      this.log(`could not read profile ${name} from the store: ${err instanceof Error ? err.message : String(err)}`);
    });
    return loaded;
  }

  /** Resolves once every profile listed at start has been read (which starts reading them now). */
  ready(): Promise<void> {
    this.queue.release();
    return this.loadedAll;
  }

  /** Reads a profile from the store into a new state: its checkpoint, if any, and the events after it. */
  private async load(name: string, meta: ProfileMeta): Promise<ProfileState> {
    const known = this.profiles.get(name);
    if (known) return known;
    const state = await readProfile(this.store, name, meta, (read, checkpoint) => {
      this.checkpoints.readFrom(read, checkpoint.n);
      this.earlier.readFrom(read, checkpoint.seq);
    });
    this.profiles.set(name, state);
    return state;
  }

  /**
   * Every example of the profile in memory: those before its checkpoint are read from the store once, in the
   * background, by the first query or route that needs them.
   */
  async examplesOf(state: ProfileState): Promise<ProfileState> {
    await this.earlier.read(state);
    return state;
  }

  /**
   * After queries on the profile: a pool or calibration the last checkpoint lacks (the first queries after an
   * ingestion, or of a new kind) is written soon, so that a start, even after a crash, need not build it again.
   */
  queried(state: ProfileState): void {
    this.checkpoints.queried(state);
  }

  /**
   * Brings one profile up to the store's head (another instance wrote to it, or created it); with `seq`, the
   * event a notice named, nothing is read when that one is applied already (this instance's own, mostly).
   */
  private async catchUp(name: string, seq?: number): Promise<ProfileState | undefined> {
    const known = this.profiles.get(name);
    if (known && seq !== undefined && known.seq >= seq) return known;
    return this.mutex.run(name, async () => {
      const state = this.profiles.get(name);
      if (!state) {
        const stored = await this.store.profiles.get(name);
        return stored ? this.load(name, stored.meta as ProfileMeta) : undefined;
      }
      if (seq !== undefined && state.seq >= seq) return state;
      for (const event of await this.store.profiles.events(name, state.seq)) this.applyNew(state, event.seq, event.record as ProfileRecord, heldBatchOf(event));
      return state;
    });
  }

  /** Applies an event this instance has just written or been told of: its examples feed the pools now. */
  private applyNew(state: ProfileState, seq: number, record: ProfileRecord, held: HeldBatch | undefined): void {
    if (seq <= state.seq) return;
    state.applyEvent(seq, record, held);
    if (record.t !== "examples") return;
    feedPools(state, record.examples);
    startRebuilds(state); // Venn–Abers and RAPS of the new size, in the background (engine/rebuilds.ts)
    this.checkpoints.maybe(state);
  }

  private noticed(what: string): void {
    if (this.closed) return;
    const refresh = async () => {
      if (what.startsWith("profile:")) {
        // `profile:NAME@SEQ` for an event (a name has no @), `profile:NAME` for a creation.
        const [name, seq] = what.slice("profile:".length).split("@");
        await this.catchUp(name!, seq === undefined ? undefined : Number(seq));
        return;
      }
      for (const [name, head] of await this.store.profiles.heads()) {
        if (this.loading.has(name)) continue; // being read at start: it will be current
      if ((this.profiles.get(name)?.seq ?? -1) < head) await this.catchUp(name);
      }
    };
    refresh().catch((err: unknown) => this.log(`could not read changes from the store: ${err instanceof Error ? err.message : String(err)}`));
  }

  list(): ProfileState[] {
    return [...this.profiles.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  find(name: string): ProfileState | undefined {
    return this.profiles.get(name);
  }

  get(name: string, field?: string): ProfileState {
    const state = this.find(name);
    if (!state && this.loading.has(name)) {
      this.queue.hurry(name);
      throw new ServiceError(503, "profile_loading", `Profile "${name}" is still being read from the store after a start; retry after 1 s`, { retryAfter: 1, ...(field ? { field } : {}) });
    }
    if (!state) throw notFound(`No calibration profile named "${name}"; create it with POST /calibration-profiles`, field);
    return state;
  }

  /** As get, but asks the store first when this instance has not seen the profile yet (made by another one). */
  async fetch(name: string, field?: string): Promise<ProfileState> {
    this.queue.hurry(name);
    const state = this.find(name) ?? (await this.loading.get(name)?.catch(() => undefined)) ?? (await this.catchUp(name));
    if (!state) throw notFound(`No calibration profile named "${name}"; create it with POST /calibration-profiles`, field);
    return state;
  }

  /** Creates a profile; re-creating one with the same definition returns it (201 → 200), a different one is 409. */
  async create(request: CreateProfile, now = new Date()): Promise<{ state: ProfileState; created: boolean }> {
    return this.mutex.run(request.name, async () => {
      const backendFingerprint = (request.backend as { fingerprint?: unknown }).fingerprint;
      const meta: ProfileMeta = {
        name: request.name,
        backend: request.backend,
        method: request.method,
        alpha: request.alpha,
        strict_fingerprint: request.strict_fingerprint,
        group_by: request.group_by,
        prompt_template_hash: request.prompt_template_hash,
        ...(request.set_pooling !== undefined ? { set_pooling: request.set_pooling } : {}),
        backend_fingerprint: typeof backendFingerprint === "string" ? backendFingerprint : undefined,
        created_at: now.toISOString(),
      };
      const existing = this.profiles.get(request.name);
      if (existing) return same(existing, meta);
      const state = newProfileState(meta); // validates alpha (minimum_n) before anything is stored
      const { created, profile } = await this.store.profiles.create(request.name, meta, meta.created_at);
      if (!created) {
        // Another instance created it first: theirs stands.
        const theirs = this.profiles.get(request.name) ?? (await this.load(request.name, profile.meta as ProfileMeta));
        return same(theirs, meta);
      }
      this.profiles.set(request.name, state);
      return { state, created: true };
    });
  }

  /**
   * Runs `prepare` on the profile under its lock, caught up with the store; the record it returns is
   * committed as the profile's next event, then applied. `prepare` validates and may throw: nothing is
   * written then.
   */
  async change<T>(name: string, prepare: (state: ProfileState) => Promise<{ record?: ProfileRecord; result: (state: ProfileState) => T }>): Promise<T> {
    const state = await this.fetch(name);
    return this.mutex.run(name, async () => {
      if (this.closed) throw new Error("the profile store is closed");
      const { seq, value } = await this.store.profiles.append(name, state.seq, async (missed) => {
        for (const event of missed) state.applyEvent(event.seq, event.record as ProfileRecord, heldBatchOf(event));
        const prepared = await prepare(state);
        const record = prepared.record;
        // The JSON is made once: the store writes it, and the profile keeps it as its batch of examples.
        const event = record ? { kind: record.t, record, text: JSON.stringify(record), idempotency: record.t === "examples" ? record.idempotency : undefined } : undefined;
        return { event, value: { prepared, text: event?.text } };
      });
      const { prepared, text } = value;
      if (seq !== undefined && prepared.record) this.applyNew(state, seq, prepared.record, text === undefined ? undefined : heldBatchOf({ record: prepared.record, text }));
      return prepared.result(state);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.checkpoints.stop();
    await this.mutex.drain();
    await this.checkpoints.finish(this.profiles.values());
  }
}

function sameDefinition(a: ProfileMeta, b: ProfileMeta): boolean {
  const strip = ({ created_at: _c, ...rest }: ProfileMeta) => canonicalJson(rest);
  return strip(a) === strip(b);
}

function same(existing: ProfileState, meta: ProfileMeta): { state: ProfileState; created: boolean } {
  if (sameDefinition(existing.meta, meta)) return { state: existing, created: false };
  throw conflict(`A calibration profile named "${meta.name}" already exists with another definition`);
}

/** A new profile's state; an alpha too small for any calibration is a 422 at the request's `alpha`. */
function newProfileState(meta: ProfileMeta): ProfileState {
  try {
    const state = new ProfileState(meta);
    void state.recommendedN; // throws for an alpha too small
    return state;
  } catch (err) {
    if (!(err instanceof Error) || err.name !== "ConformalError") throw err;
    throw invalidField("alpha", `\`alpha\` ${meta.alpha} is too small: a calibration needs at least ⌈(1−α)/α⌉ examples, and no profile of up to 10,000,000 examples reaches coverage within ±0.02 of 1−α; use a larger alpha`);
  }
}
