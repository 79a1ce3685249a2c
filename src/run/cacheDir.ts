// Where the evidence cache lives (docs/run.md): --cache DIR, else $CALIBKIT_CACHE, else calibkit/ in the
// XDG cache folder ($XDG_CACHE_HOME, else ~/.cache) — the folder other tools' caches share, safe to delete.
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CALIBKIT_CACHE) return resolve(env.CALIBKIT_CACHE);
  const xdg = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(xdg, "calibkit");
}

/** The cache folder a command uses: null with --no-cache. */
export function cacheDirOf(flag: string | undefined, noCache: boolean | undefined): string | null {
  if (noCache) return null;
  return flag !== undefined ? resolve(flag) : defaultCacheDir();
}
