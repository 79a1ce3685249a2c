// access_hint handling, one rule for every adapter: auto takes the detected level, a lower hint is served
// at that level, a higher one is an error rather than a silent downgrade.
import { levelOfHint, levelRank, type AccessHint, type AccessLevel } from "../api/index.js";
import { AccessLevelError } from "./errors.js";

export function resolveAccessLevel(detected: AccessLevel, hint: AccessHint = "auto"): AccessLevel {
  const wanted = levelOfHint(hint);
  if (wanted === undefined) return detected;
  if (levelRank(wanted) > levelRank(detected)) {
    throw new AccessLevelError(wanted, detected, `access_hint "${hint}"`);
  }
  return wanted;
}

/** Throws unless `detected` reaches `needed`; `what` names the operation in the message. */
export function requireLevel(detected: AccessLevel, needed: AccessLevel, what: string): void {
  if (levelRank(detected) < levelRank(needed)) throw new AccessLevelError(needed, detected, what);
}
