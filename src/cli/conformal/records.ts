// Reading the `conformal` command's files: JSON Lines read line by line from fixed-size chunks of bytes (the
// file is never held whole, nor the records: each is handed on and dropped), or one JSON array. Errors name the file,
// the line (JSON Lines) or the record (array) and the field.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

export class InputError extends Error {}

export type Rec = Record<string, unknown>;

export interface Source {
  readonly file: string;
  /** "line 7" or "record 3" for the i-th record (0-based). */
  where(i: number): string;
  /** The text of the first record (JSON Lines) or of the whole array: key order as written. */
  readonly firstText: string | undefined;
}

const CHUNK = 1 << 20;

function objectAt(src: Source, i: number, r: unknown): Rec {
  if (!r || typeof r !== "object" || Array.isArray(r)) throw new InputError(`${src.file}: ${src.where(i)}: must be a JSON object`);
  return r as Rec;
}

/**
 * A line's bytes [start, end) offered to a fast reader before JSON.parse: true when it took the record (the
 * i-th), false to have the line parsed as JSON and handed to `each`.
 */
export type FastRecord = (bytes: Buffer, start: number, end: number, i: number, src: Source) => boolean;

/** Calls `each` for every record in file order (or `fast`, which may take any record but the first); returns the source for later messages. */
export function readRecords(file: string, each: (r: Rec, i: number, src: Source) => void, fast?: FastRecord): Source {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    throw new InputError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    const decoder = new StringDecoder("utf8");
    let got = readSync(fd, buf, 0, CHUNK, null);
    const head = decoder.write(buf.subarray(0, got));
    if (/^\s*\[/.test(head)) return readArray(file, fd, head, buf, decoder, each);
    // JSON Lines, split at the byte 0x0A (never inside a UTF-8 sequence): each line is offered to `fast`,
    // else decoded and parsed on its own.
    let lines = new Int32Array(1024);
    let count = 0;
    const src: { file: string; where(i: number): string; firstText: string | undefined } = { file, where: (i) => `line ${lines[i]}`, firstText: undefined };
    let lineNo = 0;
    let size = got;
    for (;;) {
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl >= 0 && nl < size; nl = buf.indexOf(10, start)) {
        lineNo++;
        handle(start, nl);
        start = nl + 1;
      }
      if (got === 0) break;
      // The unfinished line moves to the front; a line longer than the buffer grows it.
      if (start === 0 && size === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, size);
        buf = bigger;
      } else {
        buf.copyWithin(0, start, size);
        size -= start;
      }
      got = readSync(fd, buf, size, buf.length - size, null);
      size += got;
    }
    if (size > 0) {
      lineNo++;
      handle(0, size);
    }
    return src;

    function handle(start: number, end: number): void {
      if (count === lines.length) {
        const grown = new Int32Array(count * 2);
        grown.set(lines);
        lines = grown;
      }
      lines[count] = lineNo;
      if (count > 0 && fast?.(buf, start, end, count, src)) {
        count++;
        return;
      }
      const line = buf.toString("utf8", start, end);
      if (line.trim() === "") return;
      let r: unknown;
      try {
        r = JSON.parse(line);
      } catch (e) {
        throw new InputError(`${file}: line ${lineNo}: invalid JSON (${(e as Error).message})`);
      }
      if (count === 0) src.firstText = line;
      each(objectAt(src, count, r), count, src);
      count++;
    }
  } finally {
    closeSync(fd);
  }
}

function readArray(file: string, fd: number, head: string, buf: Buffer, decoder: StringDecoder, each: (r: Rec, i: number, src: Source) => void): Source {
  const parts = [head];
  for (let got = readSync(fd, buf, 0, CHUNK, null); got > 0; got = readSync(fd, buf, 0, CHUNK, null)) parts.push(decoder.write(buf.subarray(0, got)));
  parts.push(decoder.end());
  const text = parts.join("");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new InputError(`${file}: invalid JSON (${(e as Error).message})`);
  }
  const src: Source = { file, where: (i) => `record ${i + 1}`, firstText: text };
  (parsed as unknown[]).forEach((r, i) => each(objectAt(src, i, r), i, src));
  return src;
}

/** All records of a file, for the types whose records are small and few (gate, claim). */
export function loadRecords(file: string): { src: Source; records: Rec[] } {
  const records: Rec[] = [];
  const src = readRecords(file, (r) => records.push(r));
  return { src, records };
}

// Key order as written. JSON.parse puts integer-like keys ("-1" is not one, "0" and "1" are) first in numeric
// order, so {"-1":…, "0":…, "1":…} would read as 0, 1, -1: the scale of an interval needs the text's order.

/** The keys of `field` in the first record of a JSON Lines line or JSON array text, in written order. */
export function firstRecordKeys(text: string, field: string): string[] | undefined {
  let i = ws(text, 0);
  if (text[i] === "[") i = ws(text, i + 1);
  if (text[i] !== "{") return undefined;
  const members = (from: number, onKey: (key: string, valueAt: number) => number | undefined): number | undefined => {
    let j = ws(text, from + 1);
    if (text[j] === "}") return j + 1;
    for (;;) {
      if (text[j] !== '"') return undefined;
      const end = stringEnd(text, j);
      const key = JSON.parse(text.slice(j, end)) as string;
      j = ws(text, end);
      if (text[j] !== ":") return undefined;
      j = ws(text, j + 1);
      const next = onKey(key, j);
      if (next === undefined) return undefined;
      j = ws(text, next);
      if (text[j] === "}") return j + 1;
      if (text[j] !== ",") return undefined;
      j = ws(text, j + 1);
    }
  };
  let found: string[] | undefined;
  members(i, (key, at) => {
    if (key !== field || text[at] !== "{" || found) return valueEnd(text, at);
    const keys: string[] = [];
    const end = members(at, (k, v) => (keys.push(k), valueEnd(text, v)));
    if (end !== undefined) found = keys;
    return end;
  });
  return found;
}

function ws(t: string, i: number): number {
  while (i < t.length && (t[i] === " " || t[i] === "\t" || t[i] === "\n" || t[i] === "\r")) i++;
  return i;
}

function stringEnd(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    if (t[j] === "\\") j++;
    else if (t[j] === '"') return j + 1;
  }
  return t.length;
}

function valueEnd(t: string, i: number): number {
  if (t[i] === '"') return stringEnd(t, i);
  if (t[i] !== "{" && t[i] !== "[") {
    let j = i;
    while (j < t.length && !",}] \t\r\n".includes(t[j]!)) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    const c = t[j];
    if (c === '"') j = stringEnd(t, j) - 1;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) return j + 1;
    }
  }
  return t.length;
}
