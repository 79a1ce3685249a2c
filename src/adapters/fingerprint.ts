// Model fingerprints: a profile calibrated on one model must notice when the weights or an output-changing
// setting change. Hashes of large files are cached by (path, size, mtime) so reopening a model is cheap.
import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";

const fileHashCache = new Map<string, string>();

/** sha256 hex of a file's bytes, streamed. */
export async function hashFile(path: string): Promise<string> {
  const stat = statSync(path);
  const key = `${path}\0${stat.size}\0${stat.mtimeMs}`;
  const cached = fileHashCache.get(key);
  if (cached) return cached;
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const hex = hash.digest("hex");
  fileHashCache.set(key, hex);
  return hex;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * `sha256:<hex>` over a versioned header, each weights file as `name sha256`, and the output-changing
 * settings as canonical JSON (keys sorted), so equal inputs give equal fingerprints on any machine.
 */
export async function computeFingerprint(files: string[], settings: Record<string, unknown>): Promise<string> {
  const lines = ["calibkit-fingerprint-v1"];
  for (const file of [...files].sort()) lines.push(`${basename(file)} ${await hashFile(file)}`);
  lines.push(canonical(settings));
  return `sha256:${createHash("sha256").update(lines.join("\n")).digest("hex")}`;
}
