// When a profile's checkpoint is written: in the background, once the profile has grown by a rebuild step since
// its last one (n/16 to n/8: 65,536 examples at a million; and by at least `every` examples), soon after queries
// made a pool or calibration the last one lacks, and at a clean stop. One write at a time per profile: one is
// tens of megabytes.
import type { Store } from "../../store/index.js";
import { ServiceError } from "../errors.js";
import { poolCount } from "../engine/pools.js";
import { sizeStep } from "../engine/rebuilds.js";
import { countSnapshots } from "../engine/snapshots.js";
import { encodeCheckpoint } from "./checkpoint.js";
import type { ProfileState } from "./profileState.js";

/** Fewest new examples that make a new checkpoint worth writing, unless told otherwise. */
const CHECKPOINT_EVERY = 10_000;

/** Pools and calibrations the profile holds: a checkpoint is due when queries made a new one. */
const kinds = (state: ProfileState): number => poolCount(state) + countSnapshots(state);

export class CheckpointWriter {
  /** Examples and kept kinds in each profile's last checkpoint (read or written by this instance). */
  private readonly checkpointed = new WeakMap<ProfileState, { n: number; pools: number }>();
  private readonly writing = new Set<Promise<unknown>>();
  /** Profiles whose checkpoint is being encoded or written. */
  private readonly encoding = new WeakSet<ProfileState>();
  private readonly soon = new WeakSet<ProfileState>();
  private readonly timer: NodeJS.Timeout;
  private stopped = false;
  private readonly every: number;

  constructor(private readonly store: Store, private readonly log: (line: string) => void, profiles: () => Iterable<ProfileState>, every?: number) {
    this.every = every ?? CHECKPOINT_EVERY;
    // Pools first asked for after the last checkpoint (a query type, option names) join the next one soon.
    this.timer = setInterval(() => {
      for (const state of profiles()) this.maybe(state);
    }, 2_000);
    this.timer.unref();
  }

  /** The state was read from a checkpoint of `n` examples. */
  readFrom(state: ProfileState, n: number): void {
    this.checkpointed.set(state, { n, pools: kinds(state) });
  }

  /**
   * Writes a checkpoint of the profile in the background once it has grown enough since the last one, or
   * (`final`: at a clean stop) changed at all; a profile of fewer than `every` examples needs none.
   */
  maybe(state: ProfileState, final = false): void {
    const last = this.checkpointed.get(state) ?? { n: 0, pools: 0 };
    const pools = kinds(state);
    if (this.stopped && !final) return;
    if (state.n < this.every || (state.n === last.n && pools <= last.pools)) return;
    // A start after a crash reads the events since the last checkpoint: at most a step's (plus the write under way).
    const grown = state.n - last.n >= Math.max(this.every, sizeStep(last.n));
    if (!grown && !final && pools <= last.pools) return;
    if (this.encoding.has(state)) return; // the one under way is written first; the timer asks again after it
    this.checkpointed.set(state, { n: state.n, pools });
    this.encoding.add(state);
    const write = (async () => {
      let checkpoint: Awaited<ReturnType<typeof encodeCheckpoint>>;
      try {
        checkpoint = await encodeCheckpoint(state);
      } catch (err) {
        // Pools not advanceable without the examples before an older checkpoint: a later batch tries again.
        // A checkpoint is never worth failing a write that is already committed, nor the process.
        this.checkpointed.set(state, last);
        if (!(err instanceof ServiceError)) this.log(`could not make a checkpoint of profile ${state.name}: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      await this.store.profiles.saveCheckpoint(state.name, checkpoint.seq, checkpoint.n, checkpoint.data);
    })().catch((err: unknown) => {
      this.checkpointed.set(state, last);
      this.log(`could not write a checkpoint of profile ${state.name}: ${err instanceof Error ? err.message : String(err)}`);
    });
    this.writing.add(write);
    void write.finally(() => {
      this.writing.delete(write);
      this.encoding.delete(state);
    });
  }

  /**
   * After queries on the profile: a pool or calibration the last checkpoint lacks (the first queries after an
   * ingestion, or of a new kind) is written soon, so that a start, even after a crash, need not build it again.
   */
  queried(state: ProfileState): void {
    const last = this.checkpointed.get(state);
    if (state.n < this.every || (last && kinds(state) <= last.pools) || this.soon.has(state)) return;
    this.soon.add(state);
    setImmediate(() => {
      this.soon.delete(state);
      this.maybe(state);
    });
  }

  /** No checkpoint is started from now on but the final ones (`finish`). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** At a clean stop, once no change can come: the writes under way, then a final one of each profile changed. */
  async finish(profiles: Iterable<ProfileState>): Promise<void> {
    this.stop();
    // Those under way first: the final ones cover what changed after them.
    await Promise.all([...this.writing]);
    for (const state of profiles) this.maybe(state, true);
    await Promise.all([...this.writing]);
  }
}
