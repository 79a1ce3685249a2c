// Reading fields of a published record by dotted path (`choices.text`), and the checks every layout
// shares, each rejection naming the field as the file spells it.
import { RecordProblem } from "../records.js";

export type Json = Record<string, unknown>;

/** Option names for layouts that give the options as a bare list: A, B, … Z. */
export const OPTION_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The value at a dotted path, or undefined when any step is missing. */
export function at(record: Json, path: string): unknown {
  let value: unknown = record;
  for (const step of path.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Json)[step];
  }
  return value;
}

export function stringAt(record: Json, path: string, required: true): string;
export function stringAt(record: Json, path: string, required: false): string | undefined;
export function stringAt(record: Json, path: string, required: boolean): string | undefined;
export function stringAt(record: Json, path: string, required: boolean): string | undefined {
  const v = at(record, path);
  if (v === undefined || v === null) {
    if (required) throw new RecordProblem(path, "is missing");
    return undefined;
  }
  if (typeof v !== "string") throw new RecordProblem(path, `must be a string, got ${describe(v)}`);
  if (required && v.trim() === "") throw new RecordProblem(path, "is empty");
  return v;
}

export function stringListAt(record: Json, path: string): string[] {
  const v = at(record, path);
  if (v === undefined || v === null) throw new RecordProblem(path, "is missing");
  if (!Array.isArray(v)) throw new RecordProblem(path, `must be a list of strings, got ${describe(v)}`);
  return v.map((t, i) => {
    if (typeof t !== "string") throw new RecordProblem(`${path}[${i}]`, `must be a string, got ${describe(t)}`);
    return t;
  });
}

/** An id as a string (ids may be numbers, or 64-bit integers from Parquet); `fallback` when absent. */
export function idAt(record: Json, path: string, fallback: string): string {
  const v = at(record, path);
  if (v === undefined || v === null) return fallback;
  if (typeof v === "string" || typeof v === "number" || typeof v === "bigint") return String(v);
  throw new RecordProblem(path, `must be a string or a number, got ${describe(v)}`);
}

/** Checks a multiple-choice item's options: at least two, none empty, names distinct. */
export function optionsFrom(names: readonly string[], texts: readonly string[], path: string, namesPath = path): Record<string, string> {
  if (texts.length < 2) throw new RecordProblem(path, `needs at least 2 options, got ${texts.length}`);
  if (names.length !== texts.length) {
    throw new RecordProblem(namesPath, `names ${names.length} options but ${path} holds ${texts.length}`);
  }
  const options: Record<string, string> = {};
  texts.forEach((t, i) => {
    const name = names[i]!;
    if (t.trim() === "") throw new RecordProblem(`${path}[${i}]`, "option text is empty");
    if (name.trim() === "") throw new RecordProblem(`${namesPath}[${i}]`, "option name is empty");
    if (name in options) throw new RecordProblem(namesPath, `option name "${name}" appears twice`);
    options[name] = t;
  });
  return options;
}

export function letters(count: number, path: string): string[] {
  if (count > OPTION_LETTERS.length) throw new RecordProblem(path, `at most ${OPTION_LETTERS.length} options, got ${count}`);
  return [...OPTION_LETTERS.slice(0, count)];
}

export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  return typeof v;
}
