// API keys: only their sha256 digests are kept, and a presented key is compared with every one of
// them in constant time, so neither timing nor memory reveals a configured key.
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (key: string) => createHash("sha256").update(key, "utf8").digest();

export class KeyRing {
  private readonly digests: Buffer[];

  /** `keys` in clear (config `keys`, env CALIBKIT_MAIL_KEYS); `sha256Hex` already hashed (config `key_sha256`). */
  constructor(keys: readonly string[], sha256Hex: readonly string[] = []) {
    this.digests = [...keys.map(digest), ...sha256Hex.map((h) => Buffer.from(h, "hex"))];
  }

  get size(): number {
    return this.digests.length;
  }

  /** True when `presented` matches a configured key; every key is compared, matched or not. */
  verify(presented: string | undefined): boolean {
    if (presented === undefined || presented === "") return false;
    const d = digest(presented);
    let ok = false;
    for (const k of this.digests) ok = timingSafeEqual(d, k) || ok;
    return ok;
  }
}

export const isLoopbackHost = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
