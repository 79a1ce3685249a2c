// The notifier's durable cursor: which alerts and audits were mailed. An entry is written `pending`
// before its mail is sent and `sent` after, each time as a whole new file (temp, fsync, rename, fsync
// of the folder), so a kill leaves the old cursor or the new one, never a torn one.
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { CalibkitError } from "../../api/index.js";
import { writeFileAtomic } from "../../durable/index.js";

export interface CursorEntry {
  state: "pending" | "sent";
  /** When the entry last changed (ISO 8601). */
  at: string;
  /** What was mailed, for a person reading the file. */
  about: string;
  api_log_id?: string | undefined;
}

interface CursorFile {
  version: 1;
  entries: Record<string, CursorEntry>;
}

export class CursorError extends CalibkitError {
  override name = "CursorError";
  constructor(message: string, cause?: unknown) {
    super("NOTIFY_CURSOR_INVALID", message, { cause });
  }
}

export class NotifyCursor {
  private constructor(readonly path: string, private readonly entries: Record<string, CursorEntry>) {}

  /** Reads the cursor at `path`; a missing file is an empty cursor. */
  static async load(path: string): Promise<NotifyCursor> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return new NotifyCursor(path, {});
      throw new CursorError(`Cannot read the notify state ${path}: ${(err as Error).message}`, err);
    }
    let parsed: CursorFile;
    try {
      parsed = JSON.parse(text) as CursorFile;
    } catch (err) {
      throw new CursorError(`The notify state ${path} is not JSON; move it aside to start over (every current alert is then mailed again)`, err);
    }
    if (parsed?.version !== 1 || typeof parsed.entries !== "object" || parsed.entries === null) {
      throw new CursorError(`The notify state ${path} has an unknown layout (expected version 1)`);
    }
    return new NotifyCursor(path, parsed.entries);
  }

  get(key: string): CursorEntry | undefined {
    return Object.hasOwn(this.entries, key) ? this.entries[key] : undefined;
  }

  async markPending(key: string, about: string): Promise<void> {
    this.entries[key] = { state: "pending", at: new Date().toISOString(), about };
    await this.save();
  }

  async markSent(key: string, about: string, apiLogId: string | null): Promise<void> {
    this.entries[key] = { state: "sent", at: new Date().toISOString(), about, ...(apiLogId ? { api_log_id: apiLogId } : {}) };
    await this.save();
  }

  private async save(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const body: CursorFile = { version: 1, entries: this.entries };
    await writeFileAtomic(this.path, JSON.stringify(body, null, 1) + "\n");
  }
}
