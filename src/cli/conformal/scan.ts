// The fast path of the `conformal` command's JSON Lines reading: a line of the usual shape,
// {"probabilities":{<the file's names, in its order>: numbers}, "label": "<name>", "group": "<g>"}, read from
// its bytes straight into numbers (JSON.parse built an object, interned ten keys and made a string per line:
// two thirds of the command's parse time). It accepts a line only when JSON.parse would read the same values
// from it; any other line (escapes, other keys, nested values, a bad value) it declines, and the caller parses
// that line with JSON.parse, whose errors name the line and field as before.
import { readNumber } from "./numbers.js";

const QUOTE = 34;
const BACKSLASH = 92;

const isSpace = (c: number | undefined) => c === 32 || c === 9 || c === 13 || c === 10;

/** Where a JSON string without escapes that starts at `i` (its opening quote) ends (after the closing quote); -1 otherwise. */
function plainStringEnd(b: Uint8Array, i: number, end: number): number {
  if (b[i] !== QUOTE) return -1;
  for (let j = i + 1; j < end; j++) {
    const c = b[j]!;
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH || c < 32) return -1;
  }
  return -1;
}

/** The end of a scalar JSON value (plain string, number, true, false, null) at `i`; -1 for anything else. */
function scalarEnd(b: Uint8Array, i: number, end: number): number {
  const c = b[i];
  if (c === QUOTE) return plainStringEnd(b, i, end);
  if (c === 45 || (c !== undefined && c >= 48 && c <= 57)) return readNumber(b, i, end, SCRATCH, 0);
  for (const word of WORDS) {
    if (i + word.length <= end && word.every((x, k) => b[i + k] === x)) return i + word.length;
  }
  return -1;
}
const SCRATCH = new Float64Array(1);
const WORDS = ["true", "false", "null"].map((w) => [...Buffer.from(w)]);

const keyOf = (s: string) => [...Buffer.from(JSON.stringify(s))];
const PROBABILITIES = keyOf("probabilities");
const LABEL = keyOf("label");
const GROUP = keyOf("group");

function keyIs(b: Uint8Array, i: number, end: number, key: readonly number[]): boolean {
  if (i + key.length > end) return false;
  for (let k = 0; k < key.length; k++) if (b[i + k] !== key[k]) return false;
  return true;
}

/**
 * Reads records whose probabilities name exactly `names`, in that order. After a successful scan(), `values`
 * holds the probabilities (finite, ≥ 0), `label` the label's index in `names` (labelled files) and `group` the
 * group (undefined when the record has none).
 */
export class RecordScanner {
  readonly values: Float64Array;
  label = -1;
  group: string | undefined;
  private readonly keys: number[][];
  private readonly index: ReadonlyMap<string, number>;

  /** Undefined when a name could not be matched byte for byte (it needs escapes in JSON, or is not well-formed UTF-16). */
  static for(names: readonly string[], labelled: boolean): RecordScanner | undefined {
    if (names.length === 0 || names.some((n) => /["\\\u0000-\u001f]/.test(n) || Buffer.from(n).toString() !== n)) return undefined;
    return new RecordScanner(names, labelled);
  }

  private constructor(names: readonly string[], private readonly labelled: boolean) {
    this.values = new Float64Array(names.length);
    this.keys = names.map(keyOf);
    this.index = new Map(names.map((n, j) => [n, j]));
  }

  scan(b: Uint8Array, i: number, end: number): boolean {
    let seen = 0; // bits: 1 probabilities, 2 label, 4 group
    this.group = undefined;
    while (i < end && isSpace(b[i])) i++;
    if (b[i] !== 123) return false;
    i++;
    while (i < end && isSpace(b[i])) i++;
    if (b[i] === 125) return false; // {}: no probabilities
    for (;;) {
      if (b[i] !== QUOTE) return false;
      let bit = 0;
      let v = -1;
      if (keyIs(b, i, end, PROBABILITIES)) (bit = 1), (i += PROBABILITIES.length);
      else if (keyIs(b, i, end, LABEL)) (bit = 2), (i += LABEL.length);
      else if (keyIs(b, i, end, GROUP)) (bit = 4), (i += GROUP.length);
      else if ((i = plainStringEnd(b, i, end)) < 0) return false;
      if (seen & bit) return false; // a repeated key: JSON.parse keeps the last, leave that to it
      seen |= bit;
      while (i < end && isSpace(b[i])) i++;
      if (b[i] !== 58) return false;
      i++;
      while (i < end && isSpace(b[i])) i++;
      if (bit === 1) v = this.probabilities(b, i, end);
      else if (bit === 2 && this.labelled && this.keys.length <= 16 && (v = this.nameAt(b, i, end)) >= 0) {
        // the label written as one of the names' own quoted bytes: no string made
      } else if (bit === 4 || (bit === 2 && this.labelled)) {
        v = plainStringEnd(b, i, end);
        if (v < 0) return false;
        const text = Buffer.from(b.buffer, b.byteOffset + i + 1, v - i - 2).toString();
        if (bit === 4) this.group = text;
        else {
          const j = this.index.get(text);
          if (j === undefined) return false;
          this.label = j;
        }
      } else v = scalarEnd(b, i, end);
      if (v < 0) return false;
      i = v;
      while (i < end && isSpace(b[i])) i++;
      if (b[i] === 125) break;
      if (b[i] !== 44) return false;
      i++;
      while (i < end && isSpace(b[i])) i++;
    }
    i++;
    while (i < end && isSpace(b[i])) i++;
    return i === end && (seen & 1) === 1 && (!this.labelled || (seen & 2) === 2);
  }

  /** A name's quoted bytes at `i` (the label's index in `label`): their end, or -1. */
  private nameAt(b: Uint8Array, i: number, end: number): number {
    for (let j = 0; j < this.keys.length; j++) {
      const key = this.keys[j]!;
      if (keyIs(b, i, end, key)) {
        this.label = j;
        return i + key.length;
      }
    }
    return -1;
  }

  /** The probabilities object at `i`, names in order; its end, or -1. */
  private probabilities(b: Uint8Array, i: number, end: number): number {
    if (b[i] !== 123) return -1;
    i++;
    const keys = this.keys;
    const values = this.values;
    for (let x = 0; x < keys.length; x++) {
      while (i < end && isSpace(b[i])) i++;
      const key = keys[x]!;
      if (!keyIs(b, i, end, key)) return -1;
      i += key.length;
      while (i < end && isSpace(b[i])) i++;
      if (b[i] !== 58) return -1;
      i++;
      while (i < end && isSpace(b[i])) i++;
      i = readNumber(b, i, end, values, x);
      const v = values[x]!;
      if (i < 0 || !(v >= 0 && v < Infinity)) return -1; // -0 passes, as it does `v < 0`
      while (i < end && isSpace(b[i])) i++;
      if (b[i] !== (x === keys.length - 1 ? 125 : 44)) return -1;
      i++;
    }
    return i;
  }
}
