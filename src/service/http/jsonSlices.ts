// JSON.parse over a whole body holds the event loop for as long as the parse takes: about a second for a
// 16 MiB body of option maps on this kind of machine, during which no other request (not even /health) is
// answered. A large body is parsed here instead in slices of a few milliseconds: containers larger than
// LEAF_CHARS are walked member by member, everything smaller (and every key and primitive) goes to the native
// JSON.parse, so the value and every accepted text are JSON.parse's own. Between slices the event loop runs.

/** Containers at most this long (in UTF-16 units) are parsed in one native call: a few milliseconds at most. */
const LEAF_CHARS = 64 * 1024;
/** Characters the bracket scan covers between two looks at the clock. */
const SCAN_STEP = 256 * 1024;
/** Members of a walked container read between two looks at the clock (an object of 80,000 numbers is one walk). */
const MEMBER_STEP = 256;

/**
 * Members one object of a large body may hold. Listing the keys of an object costs about a microsecond a key
 * (Object.keys of 80,000 took 100 ms), and every check after the parse lists some: above this the body is refused
 * while it is parsed. Arrays (a batch of examples) are not bounded here.
 */
export const MAX_OBJECT_MEMBERS = 4096;

export class JsonSliceError extends Error {
  override name = "JsonSliceError";
}

/** An object of the body with more than MAX_OBJECT_MEMBERS members; `path` leads to it. */
export class JsonMembersError extends Error {
  override name = "JsonMembersError";
  constructor(readonly path: string[]) {
    super(`holds more than ${MAX_OBJECT_MEMBERS} members; an object in a request body holds at most ${MAX_OBJECT_MEMBERS}`);
  }
}

interface Cursor {
  text: string;
  /** Keys and indexes down to the value being read (walked containers only). */
  path: string[];
  leafChars: number;
  /** The deepest nesting seen so far (the root container is at 1). */
  deepest: number;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string starting at `i` (a quote). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
  }
  throw new JsonSliceError(`Unterminated string starting at position ${i}`);
}

/** The index just past the primitive (number, true, false, null) starting at `i`. */
function primitiveEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break;
    j++;
  }
  return j;
}

/**
 * The index just past the container starting at `i`, found by counting brackets outside strings (a mismatch is
 * caught by the parse that follows); yields every SCAN_STEP characters. Records the nesting it saw.
 */
function* containerEnd(cursor: Cursor, i: number, depth: number): Generator<void, number> {
  const { text } = cursor;
  let level = 0;
  let next = i + SCAN_STEP;
  for (let j = i; j < text.length; j++) {
    if (j >= next) {
      next = j + SCAN_STEP;
      yield;
    }
    const c = text.charCodeAt(j);
    if (c === 0x22) j = stringEnd(text, j) - 1;
    else if (c === 0x7b || c === 0x5b) {
      if (++level + depth > cursor.deepest) cursor.deepest = level + depth;
    } else if (c === 0x7d || c === 0x5d) {
      if (--level === 0) return j + 1;
    }
  }
  throw new JsonSliceError(`Unterminated ${text[i] === "{" ? "object" : "array"} starting at position ${i}`);
}

function nativeParse(text: string, from: number, to: number): unknown {
  try {
    return JSON.parse(text.slice(from, to));
  } catch (err) {
    throw new JsonSliceError(`${(err as Error).message} (in the value at positions ${from}–${to})`);
  }
}

function expect(text: string, i: number, code: number, what: string): void {
  if (text.charCodeAt(i) !== code) {
    throw new JsonSliceError(i >= text.length ? `Unexpected end of JSON input (expected ${what})` : `Unexpected ${JSON.stringify(text[i])} at position ${i} (expected ${what})`);
  }
}

/** The value starting at `i` (no leading space) and the index just past it. */
function* parseValue(cursor: Cursor, i: number, depth: number): Generator<void, [unknown, number]> {
  const { text } = cursor;
  const c = text.charCodeAt(i);
  if (c === 0x22) {
    const end = stringEnd(text, i);
    return [nativeParse(text, i, end), end];
  }
  if (c !== 0x7b && c !== 0x5b) {
    const end = primitiveEnd(text, i);
    if (end === i) expect(text, i, 0x7b, "a value");
    return [nativeParse(text, i, end), end];
  }
  const end = yield* containerEnd(cursor, i, depth);
  if (end - i <= cursor.leafChars) {
    yield;
    return [nativeParse(text, i, end), end];
  }
  return c === 0x7b ? yield* parseObject(cursor, i, depth + 1) : yield* parseArray(cursor, i, depth + 1);
}

function* parseObject(cursor: Cursor, i: number, depth: number): Generator<void, [unknown, number]> {
  const { text } = cursor;
  const out: Record<string, unknown> = {};
  let members = 0;
  let j = skipSpace(text, i + 1);
  if (text.charCodeAt(j) === 0x7d) return [out, j + 1];
  for (;;) {
    expect(text, j, 0x22, "a string key");
    const keyEnd = stringEnd(text, j);
    const key = nativeParse(text, j, keyEnd) as string;
    j = skipSpace(text, keyEnd);
    expect(text, j, 0x3a, "':'");
    j = skipSpace(text, j + 1);
    cursor.path.push(key);
    const [value, end] = yield* parseValue(cursor, j, depth);
    cursor.path.pop();
    // As JSON.parse does: `__proto__` is an own property, never the prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    else out[key] = value;
    if (++members > MAX_OBJECT_MEMBERS) throw new JsonMembersError([...cursor.path]);
    if (members % MEMBER_STEP === 0) yield;
    j = skipSpace(text, end);
    if (text.charCodeAt(j) === 0x7d) return [out, j + 1];
    expect(text, j, 0x2c, "',' or '}'");
    j = skipSpace(text, j + 1);
  }
}

function* parseArray(cursor: Cursor, i: number, depth: number): Generator<void, [unknown, number]> {
  const { text } = cursor;
  const out: unknown[] = [];
  let members = 0;
  let j = skipSpace(text, i + 1);
  if (text.charCodeAt(j) === 0x5d) return [out, j + 1];
  for (;;) {
    cursor.path.push(String(out.length));
    const [value, end] = yield* parseValue(cursor, j, depth);
    cursor.path.pop();
    out.push(value);
    if (++members % MEMBER_STEP === 0) yield;
    j = skipSpace(text, end);
    if (text.charCodeAt(j) === 0x5d) return [out, j + 1];
    expect(text, j, 0x2c, "',' or ']'");
    j = skipSpace(text, j + 1);
  }
}

function* parseDocument(cursor: Cursor): Generator<void, unknown> {
  const start = skipSpace(cursor.text, 0);
  if (start === cursor.text.length) throw new JsonSliceError("Unexpected end of JSON input");
  const [value, end] = yield* parseValue(cursor, start, 0);
  const rest = skipSpace(cursor.text, end);
  if (rest !== cursor.text.length) throw new JsonSliceError(`Unexpected non-whitespace character after JSON at position ${rest}`);
  return value;
}

export interface SlicedParse {
  value: unknown;
  /** The deepest nesting of objects and arrays in the text (the root container is at 1). */
  nesting: number;
}

/**
 * Parses `text` as JSON.parse would, running at most about `sliceMs` at a time and letting the event loop run
 * between slices; calls `done` once, with the value or a JsonSliceError.
 */
export function parseJsonInSlices(
  text: string, done: (err: unknown, parsed?: SlicedParse) => void, options: { sliceMs?: number; leafChars?: number } = {},
): void {
  const sliceMs = options.sliceMs ?? 8;
  const cursor: Cursor = { text, path: [], leafChars: options.leafChars ?? LEAF_CHARS, deepest: 0 };
  const steps = parseDocument(cursor);
  const slice = () => {
    const until = performance.now() + sliceMs;
    let step: IteratorResult<void, unknown>;
    try {
      do step = steps.next();
      while (!step.done && performance.now() < until);
    } catch (err) {
      done(err);
      return;
    }
    if (step.done) done(undefined, { value: step.value, nesting: cursor.deepest });
    else setImmediate(slice);
  };
  slice();
}
