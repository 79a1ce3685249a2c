// The command's one JSON object, written in pieces: the head with JSON.stringify, then one prediction at a
// time into ~1 MiB chunks of bytes, so 100,000 predictions never become one string or one array of objects.
import { minimumN } from "../../conformal/setApi.js";

/** A number as the command prints it: finite numbers as JSON numbers, ±∞ as the strings "Infinity" / "-Infinity". */
export const num = (x: number): string => (Number.isFinite(x) ? String(x) : `"${x}"`);
export const finite = (x: number): number | string => (Number.isFinite(x) ? x : String(x));

const CHUNK = 1 << 20;

/**
 * A warning on stderr for each infinite threshold of a head that has an α: too few calibration records for a
 * finite quantile, so every prediction is the whole set (or scale, or no claim kept). The JSON alone said only
 * "threshold": "Infinity".
 */
function warnInfinite(head: Record<string, unknown>): void {
  const alpha = head.alpha;
  if (typeof alpha !== "number") return;
  const strata: [string, unknown, unknown][] = [];
  if (head.threshold !== undefined) strata.push(["", head.n, head.threshold]);
  for (const [g, st] of Object.entries((head.groups ?? {}) as Record<string, { n?: unknown; threshold?: unknown }>)) strata.push([g, st.n, st.threshold]);
  for (const [g, n, threshold] of strata) {
    if (threshold !== "Infinity") continue;
    const where = g === "" ? "" : ` in group "${g}"`;
    const what = head.type === "claim" ? "no claim is kept" : head.type === "interval" ? "every interval is the whole scale" : "every set is the full set";
    process.stderr.write(`calibkit conformal: warning: the threshold${where} is infinite: ${String(n)} calibration records are too few at α = ${alpha} (a finite threshold needs at least ${minimumN(alpha)}); ${what}, which covers trivially. Add records or raise --alpha.\n`);
  }
}

export class JsonOut {
  // Pieces are written into a Buffer as they come (a prediction or a few at a time): flattening one long
  // string of many small pieces at the write cost more than encoding the short strings one by one. A new
  // Buffer per chunk when a write may keep the one it was given (flush).
  private buf: Buffer = Buffer.allocUnsafe(CHUNK);
  private at = 0;
  private first = true;

  /** Writes `head` (an object) with its last key `predictions` left open for add(). */
  constructor(head: Record<string, unknown>) {
    warnInfinite(head);
    this.addText(JSON.stringify({ ...head, predictions: [] }).slice(0, -2)); // drop "]}"
  }

  /** One prediction, already JSON text. */
  add(json: string): void {
    this.addText(this.first ? json : "," + json);
    this.first = false;
  }

  /**
   * Predictions written by the caller into its own string: `text` holds whole predictions, each but the
   * first of the output preceded by a comma (`separator()` says whether the next one needs it).
   */
  addText(text: string): void {
    if (this.at + 3 * text.length > this.buf.length) {
      this.flush();
      if (3 * text.length > this.buf.length) return void process.stdout.write(text);
    }
    this.at += this.buf.write(text, this.at);
  }

  /**
   * The current chunk and how much of it is written, for a caller that writes bytes itself (in locals: fields
   * written in a hot loop cost V8 deoptimizations each time one changes kind). Hand it back with `give`.
   */
  take(): { buf: Buffer; at: number } {
    return { buf: this.buf, at: this.at };
  }

  /** Takes back the chunk written up to `at`; with `room`, returns a chunk with at least that much free (flushing this one when needed). */
  give(buf: Buffer, at: number, room = 0): Buffer {
    this.buf = buf;
    this.at = at;
    if (at + room > buf.length) {
      this.flush();
      if (room > this.buf.length) this.buf = Buffer.allocUnsafe(room);
    }
    return this.buf;
  }

  /** Where the next byte goes in the chunk `give` returned. */
  get written(): number {
    return this.at;
  }

  separator(): string {
    const s = this.first ? "" : ",";
    this.first = false;
    return s;
  }

  end(): void {
    this.addText("]}\n");
    this.flush();
  }

  private flush(): void {
    if (this.at) {
      process.stdout.write(this.buf.subarray(0, this.at));
      // The chunk is written again only when the write took it at once (a file, /dev/null, a pipe with room:
      // stdout is synchronous there on Linux) and no wrapper of stdout's write may have kept it; else a new one
      // (a new MiB costs a page fault per 4 KiB on first touch).
      if (Object.hasOwn(process.stdout, "write") || process.stdout.writableLength > 0) this.buf = Buffer.allocUnsafe(CHUNK);
    }
    this.at = 0;
  }
}
