// The examples before the checkpoint a profile was read from at start: they stay in the store until a query or
// route needs them, and are then read once, in the background, a few events at a time, so that the service keeps
// answering while a large profile is read.
import type { Store } from "../../store/index.js";
import { heldBatchOf, type HeldBatch } from "./heldExamples.js";
import type { ProfileState } from "./profileState.js";

export class EarlierExamples {
  private readonly reading = new WeakMap<ProfileState, Promise<void>>();
  /** The event each state's checkpoint was taken after: the examples before it are in events up to it. */
  private readonly upTo = new WeakMap<ProfileState, number>();

  constructor(private readonly store: Store, private readonly log: (line: string) => void) {}

  /** The state was read from a checkpoint taken after event `seq`; a query that needs more reads them. */
  readFrom(state: ProfileState, seq: number): void {
    this.upTo.set(state, seq);
    state.onExamplesNeeded = (s) => void this.read(s).catch(() => undefined);
  }

  /** Resolves once every example of the profile is held (at once when they are). */
  read(state: ProfileState): Promise<void> {
    if (state.examplesHeld) return Promise.resolve();
    let reading = this.reading.get(state);
    if (!reading) {
      const upTo = this.upTo.get(state)!;
      reading = (async () => {
        const before: HeldBatch[] = [];
        for (let after = 0; ;) {
          const events = await this.store.profiles.events(state.name, after, 64, upTo);
          if (events.length === 0) break;
          for (const event of events) {
            const held = heldBatchOf(event);
            if (held) before.push(held);
          }
          after = events.at(-1)!.seq;
        }
        state.prependExamples(before);
      })();
      reading.catch((err: unknown) => {
        this.reading.delete(state);
        this.log(`could not read the examples of profile ${state.name} from the store: ${err instanceof Error ? err.message : String(err)}`);
      });
      this.reading.set(state, reading);
    }
    return reading;
  }
}
