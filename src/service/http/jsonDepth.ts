// A bound on how deeply a request body nests. JSON.parse takes any depth, but storing or answering a value
// thousands of levels deep overflows the stack in JSON.stringify (a 500 after the parse had succeeded), so a
// body deeper than MAX_JSON_DEPTH is refused up front with a 422 naming the field that holds the deep value.
import { invalidField } from "../errors.js";

export const MAX_JSON_DEPTH = 100;

/**
 * The path of the first value nested deeper than `max`, or undefined. Recursion stops at `max` levels, so it
 * cannot overflow; no path is built unless one is too deep (this runs on every request body).
 */
export function tooDeepPath(value: unknown, max = MAX_JSON_DEPTH, depth = 0): string[] | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (depth >= max) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item === null || typeof item !== "object") continue;
      const below = tooDeepPath(item, max, depth + 1);
      if (below) return [String(i), ...below];
    }
    return undefined;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item === null || typeof item !== "object") continue;
    const below = tooDeepPath(item, max, depth + 1);
    if (below) return [key, ...below];
  }
  return undefined;
}

/** The field a user wrote: the leading names down to the first array index under a named field (examples.0.context). */
function fieldOf(path: readonly string[]): string {
  const kept: string[] = [];
  for (const [i, segment] of path.entries()) {
    if (i >= 2 && (/^\d+$/.test(segment) || i >= 4)) break;
    kept.push(segment);
  }
  return kept.join(".");
}

/**
 * The deepest nesting of objects and arrays in valid JSON text, read from its bytes: a scan of the text costs a
 * fraction of a walk over the parsed values (thousands of objects in a batch of examples).
 */
export function textNesting(raw: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next byte is escaped (a quote or another backslash)
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * The number of `{` and `[` bytes in the text, counted up to `limit` + 1: a bound on its nesting, found by the
 * native byte search (a quarter of textNesting's time on a 1 KiB body, the common request).
 */
export function openingsUpTo(raw: Uint8Array, limit: number): number {
  let count = 0;
  for (const byte of OPENING_BYTES) {
    for (let i = raw.indexOf(byte); i !== -1; i = raw.indexOf(byte, i + 1)) if (++count > limit) return count;
  }
  return count;
}
const OPENING_BYTES = [0x7b, 0x5b];

/** Refuses a body nested deeper than MAX_JSON_DEPTH; `raw`, its text, spares the walk when it is shallow enough. */
export function checkJsonDepth(body: unknown, raw?: Uint8Array): void {
  // The root is at depth 0 for tooDeepPath: a text nesting of at most MAX_JSON_DEPTH holds nothing too deep, and
  // a text with that few opening brackets (strings' included) cannot nest deeper.
  if (raw && (openingsUpTo(raw, MAX_JSON_DEPTH) <= MAX_JSON_DEPTH || textNesting(raw) <= MAX_JSON_DEPTH)) return;
  const path = tooDeepPath(body);
  if (!path) return;
  const field = fieldOf(path);
  throw invalidField(field, `\`${field}\` nests more than ${MAX_JSON_DEPTH} levels deep; flatten it (a stored value is kept as JSON)`);
}
