// One server process per data directory: two processes appending to the same WALs would interleave
// batches and break the one-writer assumption of the per-profile mutex. The lock file holds the owner's pid;
// a lock whose pid is gone (the owner was killed) is taken over.
import { open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { CalibkitError } from "../../api/index.js";

export class DataDirLockedError extends CalibkitError {
  override name = "DataDirLockedError";
  constructor(dir: string, pid: number) {
    super("DATA_DIR_LOCKED", `The data directory ${dir} is in use by another calibkit serve (pid ${pid}); stop it or pass another --data`);
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

export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const path = join(dir, "service.lock");
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
      if (!alive(owner)) {
        await rm(path, { force: true });
        continue;
      }
      throw new DataDirLockedError(dir, owner);
    }
  }
  throw new CalibkitError("DATA_DIR_LOCKED", `Could not take the lock ${path}`);
}
