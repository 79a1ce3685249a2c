// One process per data folder: two processes appending to the same logs would interleave writes and break
// the one-writer assumption every store here makes. The lock file holds the owner's pid; a lock whose pid is
// gone (the owner was killed) is taken over.
import { open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { CalibkitError } from "../api/index.js";

export class DataDirLockedError extends CalibkitError {
  override name = "DataDirLockedError";
  readonly owner: number;
  constructor(dir: string, owner: number, holder: string) {
    super("DATA_DIR_LOCKED", `The data folder ${dir} is in use by another ${holder} (process ${owner}); stop it or pass another --data`);
    this.owner = owner;
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Takes `<dir>/<lockName>` for this process. `holder` names the kind of process in the error a second one
 * gets (e.g. "calibkit serve").
 */
export async function lockDataDir(dir: string, lockName: string, holder: string): Promise<DataDirLock> {
  const path = join(dir, lockName);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.sync();
      await handle.close();
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          await rm(path, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
      if (owner === process.pid || alive(owner)) throw new DataDirLockedError(dir, owner, holder);
      await rm(path, { force: true });
    }
  }
  throw new CalibkitError("DATA_DIR_LOCKED", `Could not take the lock ${path}`);
}
