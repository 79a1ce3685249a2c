// A profile's examples in memory, held compactly: each batch as the one JSON string the store was given (or read
// back), parsed again only when an example is asked for. Held as parsed documents, a million examples were 8–10
// million small objects on the heap, and every garbage collection during ingestion walked them (pauses of tens to
// hundreds of milliseconds); a string per batch is one object the collector never looks inside. A few parsed
// batches are kept (the one just added, and those a sequential scan — a pool, the examples listing — is reading).
import type { ExampleRecord } from "../../api/index.js";
import type { ProfileRecord } from "./records.js";

/** Parsed batches kept: enough for a few scans under way at once, each reading batches in order. */
const PARSED_KEPT = 8;

/** One batch as the store holds it: the JSON it was given (or read back), and its examples' count. */
export interface HeldBatch {
  /** JSON of the examples array, or (`inRecord`) of the stored event record holding it under `examples`. */
  text: string;
  count: number;
  /** The text is the whole event record (`{"t":"examples",…,"examples":[…],…}`), not only its examples. */
  inRecord: boolean;
}

interface Batch extends HeldBatch {
  /** Position of the batch's first example in the profile. */
  start: number;
}

export class HeldExamples {
  /** Examples at positions before `base` are not held (a start from a checkpoint): only in the store. */
  private base = 0;
  private batches: Batch[] = [];
  private count = 0;
  /** Parsed batches, least recently used first. */
  private readonly parsed = new Map<Batch, readonly ExampleRecord[]>();
  /** The batch the last lookup found: scans ask for the same one, or the next, again and again. */
  private last = 0;
  /** The batch last parsed or asked for: the last in `parsed`. */
  private newest: Batch | undefined;

  get n(): number {
    return this.base + this.count;
  }

  /** Position of the first example held (0 unless started from a checkpoint whose examples are not read yet). */
  get first(): number {
    return this.base;
  }

  /** Whether every example is held (false after a start from a checkpoint, until those before it are read). */
  get complete(): boolean {
    return this.base === 0;
  }

  /** Positions before `n` are not held (a start from a checkpoint of `n` examples). */
  startAt(n: number): void {
    if (this.n !== 0) throw new Error("startAt: the profile already holds examples");
    this.base = n;
  }

  /**
   * Appends a batch. `held` is its JSON as stored (made once for the store, or read from it); without it the
   * examples are serialised here. The examples given are kept as the batch's parsed form for now.
   */
  append(examples: readonly ExampleRecord[], held?: HeldBatch): void {
    if (examples.length === 0) return;
    if (held && held.count !== examples.length) throw new Error(`a batch of ${examples.length} examples was given with JSON of ${held.count}`);
    const batch: Batch = { start: this.n, count: examples.length, text: held?.text ?? JSON.stringify(examples), inRecord: held?.inRecord ?? false };
    this.batches.push(batch);
    this.count += batch.count;
    this.keep(batch, examples);
  }

  /** The batches before the start's checkpoint, read from the store: every example is held again. */
  prepend(before: readonly HeldBatch[]): void {
    const total = before.reduce((sum, b) => sum + b.count, 0);
    if (total !== this.base) throw new Error(`the store gave ${total} examples before the checkpoint, which holds ${this.base}`);
    let start = 0;
    const earlier: Batch[] = [];
    for (const b of before) {
      if (b.count === 0) continue;
      earlier.push({ start, count: b.count, text: b.text, inRecord: b.inRecord });
      start += b.count;
    }
    this.batches = [...earlier, ...this.batches];
    this.count += this.base;
    this.base = 0;
    this.last = 0;
  }

  /** The example at `position` (base ≤ position < n). */
  at(position: number): ExampleRecord {
    if (position < this.base || position >= this.n) throw new RangeError(`no example at position ${position} (held: ${this.base} to ${this.n})`);
    const batch = this.batches[this.find(position)]!;
    return this.examplesOf(batch)[position - batch.start]!;
  }

  /** Examples at positions from … to − 1 (clipped to those that exist; all at or after base). */
  slice(from: number, to: number): ExampleRecord[] {
    const end = Math.min(to, this.n);
    const out: ExampleRecord[] = [];
    if (from >= end) return out;
    if (from < this.base) throw new RangeError(`examples before position ${this.base} are not held`);
    for (let i = this.find(from); i < this.batches.length && this.batches[i]!.start < end; i++) {
      const batch = this.batches[i]!;
      const examples = this.examplesOf(batch);
      for (let p = Math.max(from, batch.start); p < Math.min(end, batch.start + batch.count); p++) out.push(examples[p - batch.start]!);
    }
    return out;
  }

  /** Index of the batch holding `position`: the last one found or its successor, else a binary search. */
  private find(position: number): number {
    const { batches } = this;
    for (let i = this.last; i <= this.last + 1; i++) {
      const b = batches[i];
      if (b && b.start <= position && position < b.start + b.count) return (this.last = i);
    }
    let lo = 0;
    let hi = batches.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (batches[mid]!.start <= position) lo = mid;
      else hi = mid - 1;
    }
    return (this.last = lo);
  }

  private examplesOf(batch: Batch): readonly ExampleRecord[] {
    const hit = this.parsed.get(batch);
    // A scan asks for the same batch again and again: it is the newest already.
    if (hit && batch === this.newest) return hit;
    if (hit) {
      this.newest = batch;
      this.parsed.delete(batch);
      this.parsed.set(batch, hit);
      return hit;
    }
    const value = JSON.parse(batch.text) as ExampleRecord[] | { examples: ExampleRecord[] };
    const examples = batch.inRecord ? (value as { examples: ExampleRecord[] }).examples : (value as ExampleRecord[]);
    this.keep(batch, examples);
    return examples;
  }

  private keep(batch: Batch, examples: readonly ExampleRecord[]): void {
    this.newest = batch;
    this.parsed.set(batch, examples);
    if (this.parsed.size > PARSED_KEPT) this.parsed.delete(this.parsed.keys().next().value!);
  }
}

/** An examples event's batch as a profile keeps it: the stored JSON of the record, not its parsed documents. */
export function heldBatchOf(event: { record: unknown; text: string }): HeldBatch | undefined {
  const record = event.record as ProfileRecord;
  return record.t === "examples" ? { text: event.text, count: record.examples.length, inRecord: true } : undefined;
}
