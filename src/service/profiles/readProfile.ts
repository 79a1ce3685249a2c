// A profile read from the store at a start: its checkpoint, if any, and the events after it. After a crash those
// events can be a rebuild step of the profile and more (65,000–150,000 examples at a million, 0.3–0.5 s of JSON
// to parse), and the checkpoint tens of megabytes that PostgreSQL streams for 0.2–0.4 s with the event loop
// idle: so the events are read a few at a time while the checkpoint streams in, each parsed as it comes, and
// applied once the checkpoint is decoded (those read after that are applied at once, each then dying young).
import { setImmediate as nextTurn } from "node:timers/promises";
import type { ProfileEvent, Store } from "../../store/index.js";
import { decodeCheckpoint } from "./checkpoint.js";
import { feedPools } from "./eagerPools.js";
import { heldBatchOf } from "./heldExamples.js";
import { ProfileState } from "./profileState.js";
import type { ProfileMeta, ProfileRecord } from "./records.js";

/** Events read per query: a few megabytes of JSON at most, parsed between two reads. */
const EVENTS_PER_READ = 8;


export interface ReadCheckpoint {
  /** The event the checkpoint was taken after, and its examples. */
  seq: number;
  n: number;
}

/** Reads the profile; `fromCheckpoint` is told of the checkpoint the state was decoded from. */
export async function readProfile(store: Store, name: string, meta: ProfileMeta, fromCheckpoint: (state: ProfileState, checkpoint: ReadCheckpoint) => void): Promise<ProfileState> {
  // A checkpoint only ever moves forward, so the events after the one seen first hold all that follow the one
  // read; applyEvent skips the rest.
  const since = (await store.profiles.checkpointSeq(name)) ?? 0;
  let state: ProfileState | undefined;
  const decoded = store.profiles.checkpoint(name).then((checkpoint) => {
    if (!checkpoint) return (state = new ProfileState(meta));
    state = decodeCheckpoint(meta, checkpoint.data);
    fromCheckpoint(state, checkpoint);
    return state;
  });
  decoded.catch(() => undefined); // awaited below; an events read that fails first must not leave it unhandled
  const waiting: ProfileEvent[] = [];
  let reading = store.profiles.events(name, since, EVENTS_PER_READ);
  for (;;) {
    const events = await reading;
    const more = events.length === EVENTS_PER_READ;
    if (more) reading = store.profiles.events(name, events.at(-1)!.seq, EVENTS_PER_READ);
    for (let event = events.shift(); event; event = events.shift()) {
      if (state) {
        for (let w = waiting.shift(); w; w = waiting.shift()) apply(state, w);
        apply(state, event);
      } else {
        void event.record; // parsed now, while the checkpoint streams in
        waiting.push(event);
      }
      await nextTurn(); // the checkpoint's data, and requests, between two events
    }
    if (!more) break;
  }
  const read = await decoded;
  for (let w = waiting.shift(); w; w = waiting.shift()) apply(read, w);
  return read;
}

function apply(state: ProfileState, event: ProfileEvent): void {
  const record = event.record as ProfileRecord;
  state.applyEvent(event.seq, record, heldBatchOf(event));
  // The pools take the batch's rows now, while it is parsed: the first query would parse its JSON again.
  if (record.t === "examples") feedPools(state, record.examples);
}
