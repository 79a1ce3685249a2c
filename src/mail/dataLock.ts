// One mail service per data folder: two processes appending to one journal would both deliver every
// queued message. The lock file holds the owner's pid; a lock left by a killed process is taken over.
import { open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { CalibkitError } from "../api/index.js";

export class DataDirLockedError extends CalibkitError {
  override name = "DataDirLockedError";
  constructor(dir: string, pid: number) {
    super("MAIL_DATA_LOCKED", `The mail data folder ${dir} is in use by process ${pid}; stop it or pick another --data`);
  }
}

function alive(pid: number): boolean {
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
  const path = join(dir, "mail.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(path, "wx");
      await fh.writeFile(String(process.pid));
      await fh.close();
      return { release: () => rm(path, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
      if (Number.isInteger(owner) && owner > 0 && (owner === process.pid || alive(owner))) throw new DataDirLockedError(dir, owner);
      await rm(path, { force: true });
    }
  }
  throw new DataDirLockedError(dir, -1);
}
