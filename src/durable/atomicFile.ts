// Whole-file snapshots that are either the old or the new content after a crash, never a mix:
// write a temporary file, fsync it, rename it over the target, fsync the directory (POSIX rename is atomic,
// and the directory fsync makes the rename itself durable).
import { open, readdir, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";

const TMP_MARK = ".tmp-";

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const tmp = `${path}${TMP_MARK}${process.pid}-${randomBytes(4).toString("hex")}`;
  const handle = await open(tmp, "w", 0o600);
  try {
    await handle.writeFile(data);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await fsyncDir(dirname(path));
}

/** Removes temporaries a crash left between write and rename; they never hold acknowledged data. */
export async function removeStaleTemporaries(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (basename(name).includes(TMP_MARK)) await rm(join(dir, name), { force: true });
  }
}
