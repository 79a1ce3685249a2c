// API keys: stored only as sha256 digests, compared in constant time. A presented key is hashed and compared
// against every stored digest with timingSafeEqual, without an early exit, so neither the key nor which
// entry matched leaks through timing.
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { unauthorized } from "./errors.js";

export interface StoredKey {
  /** Label used as the rate-limit bucket and in logs; never the key itself. */
  name: string;
  digest: Buffer;
}

export const hashKey = (key: string): Buffer => createHash("sha256").update(key, "utf8").digest();

/** `sha256:<hex>` as written in a config file, for `calibkit serve --hash-key`. */
export const formatKeyHash = (key: string): string => `sha256:${hashKey(key).toString("hex")}`;

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (h.startsWith("::ffff:")) return h.slice(7).startsWith("127.");
  return false;
}

/** The principal of an anonymous request on an open (loopback, keyless) service. */
export const ANONYMOUS = "anonymous";

export class Authenticator {
  constructor(private readonly keys: readonly StoredKey[]) {}

  /** True when requests need a key: keys were configured (which opts a loopback service in too). */
  get required(): boolean {
    return this.keys.length > 0;
  }

  /** The principal (key name) of a request, or 401. */
  authenticate(authorization: string | undefined): string {
    if (!this.required) return ANONYMOUS;
    if (!authorization) throw unauthorized("Missing API key: send `Authorization: Bearer <API_KEY>`");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthorized("Malformed Authorization header: expected `Bearer <API_KEY>`");
    const digest = hashKey(match[1]!);
    let found: string | undefined;
    for (const key of this.keys) {
      if (timingSafeEqual(digest, key.digest) && found === undefined) found = key.name;
    }
    if (found === undefined) throw unauthorized("Invalid API key");
    return found;
  }
}
