// The per-profile write-ahead log: JSON Lines, one line per acknowledged change, each line
// `<byte length>:<sha256 hex>:<json>\n`. A line is appended and fdatasync'ed before the 2xx, so an
// acknowledged batch survives a kill at any instant. A batch is one line, so recovery sees all of it or none:
// a torn or corrupt tail (the process died mid-write) is cut off, a corrupt line inside is skipped and reported.
import { createHash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";

const NEWLINE = 0x0a;

function encodeLine(record: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(record), "utf8");
  const hash = createHash("sha256").update(json).digest("hex");
  return Buffer.concat([Buffer.from(`${json.length}:${hash}:`, "ascii"), json, Buffer.from("\n")]);
}

/** The JSON of one line, or undefined when its length or checksum does not match (torn or corrupt). */
function decodeLine(line: Buffer): unknown {
  const first = line.indexOf(0x3a);
  const second = first < 0 ? -1 : line.indexOf(0x3a, first + 1);
  if (first <= 0 || second < 0) return undefined;
  const length = Number(line.subarray(0, first).toString("ascii"));
  const json = line.subarray(second + 1);
  if (!Number.isSafeInteger(length) || json.length !== length) return undefined;
  const hash = createHash("sha256").update(json).digest("hex");
  if (hash !== line.subarray(first + 1, second).toString("ascii")) return undefined;
  try {
    return JSON.parse(json.toString("utf8"));
  } catch {
    return undefined;
  }
}

export interface WalRecovery<T> {
  records: T[];
  /** Bytes cut from the end: a torn or corrupt last line. */
  truncatedBytes: number;
  /** Corrupt lines inside the log that were skipped (1-based line numbers). */
  skippedLines: number[];
}

export class WriteAheadLog<T = unknown> {
  private constructor(
    readonly path: string,
    private handle: FileHandle | undefined,
    private size: number,
  ) {}

  /** Opens (creating) the log, cuts a torn tail, and returns every intact record in order. */
  static async open<T>(path: string): Promise<{ wal: WriteAheadLog<T>; recovery: WalRecovery<T> }> {
    const handle = await open(path, "a+", 0o600);
    try {
      const content = await handle.readFile();
      const records: T[] = [];
      const skippedLines: number[] = [];
      let goodEnd = 0;
      let start = 0;
      let lineNo = 0;
      while (start < content.length) {
        const end = content.indexOf(NEWLINE, start);
        lineNo++;
        if (end < 0) break; // no newline: the last write was torn
        const value = decodeLine(content.subarray(start, end));
        if (value === undefined) skippedLines.push(lineNo);
        else records.push(value as T);
        start = end + 1;
        if (value !== undefined) goodEnd = start;
      }
      // Only a bad line at the very end is a torn write; a bad line followed by good ones is kept as skipped.
      if (skippedLines.length > 0 && skippedLines.at(-1) === lineNo && start >= content.length) skippedLines.pop();
      const truncatedBytes = content.length - goodEnd;
      if (truncatedBytes > 0) {
        await handle.truncate(goodEnd);
        await handle.sync();
      }
      return { wal: new WriteAheadLog<T>(path, handle, goodEnd), recovery: { records, truncatedBytes, skippedLines } };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Appends one record as one line and makes it durable; on failure the log is cut back to its old end. */
  async append(record: T): Promise<void> {
    const handle = this.handle;
    if (!handle) throw new Error(`write-ahead log ${this.path} is closed`);
    const line = encodeLine(record);
    try {
      let written = 0;
      while (written < line.length) {
        const { bytesWritten } = await handle.write(line, written, line.length - written);
        written += bytesWritten;
      }
      await handle.datasync();
      this.size += line.length;
    } catch (err) {
      await handle.truncate(this.size).catch(() => undefined);
      throw err;
    }
  }

  get bytes(): number {
    return this.size;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}
