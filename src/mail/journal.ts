// The durable queue's log: one JSON record per line, appended and fsynced before anyone is told a
// record exists. Appends made while a flush is running are written together with one fsync (group
// commit), so a 1,000-message delivery does not pay 1,000 fsyncs one after another.
import { open, mkdir, readFile, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { fsyncDir } from "../durable/index.js";
import { JournalCorruptError } from "./errors.js";

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class Journal {
  private pending: string[] = [];
  private waiters: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;

  private constructor(private readonly fh: FileHandle, readonly path: string, private size: number) {}

  /**
   * Opens (creating) the journal at `path` and returns it with every complete record in order.
   * A last line cut short by a kill is dropped and cut off the file, so the next append starts clean.
   */
  static async open(path: string): Promise<{ journal: Journal; records: unknown[] }> {
    await mkdir(dirname(path), { recursive: true });
    let content = "";
    try {
      content = await readFile(path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    const records: unknown[] = [];
    let goodBytes = 0;
    let lineNo = 0;
    let start = 0;
    while (start < content.length) {
      const end = content.indexOf("\n", start);
      lineNo++;
      if (end === -1) break; // torn tail: no newline, never acknowledged
      const line = content.slice(start, end);
      if (line.trim() !== "") {
        try {
          records.push(JSON.parse(line));
        } catch (cause) {
          throw new JournalCorruptError(path, lineNo, cause);
        }
      }
      goodBytes += Buffer.byteLength(line, "utf8") + 1;
      start = end + 1;
    }
    const fh = await open(path, "a+");
    const { size } = await fh.stat();
    if (size !== goodBytes) {
      await fh.truncate(goodBytes);
      await fh.sync();
    }
    if (content === "") await fsyncDir(dirname(path));
    return { journal: new Journal(fh, path, goodBytes), records };
  }

  /** Resolves once every record is on disk (written and fsynced). */
  append(records: readonly object[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error("journal is closed"));
    for (const r of records) this.pending.push(JSON.stringify(r) + "\n");
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.flushing ??= this.flushLoop();
    return done;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const chunk = this.pending.join("");
        const waiters = this.waiters;
        this.pending = [];
        this.waiters = [];
        try {
          await this.fh.appendFile(chunk, "utf8");
          await this.fh.datasync();
          this.size += Buffer.byteLength(chunk, "utf8");
          for (const w of waiters) w.resolve();
        } catch (err) {
          // Cut off what a failed write (a full disk) left, so the next append starts on a line of its own.
          await this.fh.truncate(this.size).catch(() => undefined);
          for (const w of waiters) w.reject(err);
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
    await this.fh.close();
  }
}
