// JSON Lines: one record per line, all of one kind (taken from the first record, or from `kind`).
import { basename } from "node:path";
import { DatasetError } from "../errors.js";
import type { Dataset, DatasetKind } from "../types.js";
import { claimsOf, kindOf, multipleChoiceOf, ordinalOf, passFailOf, RecordProblem } from "./records.js";

const READERS = {
  multiple_choice: multipleChoiceOf,
  ordinal: ordinalOf,
  claims: claimsOf,
  pass_fail: passFailOf,
} as const;

/** Reads JSON Lines text into a dataset; blank lines are skipped, every other line is an item or an error. */
export function importJsonLines(text: string, file: string): Dataset {
  const stem = basename(file).replace(/\.[^.]*$/, "");
  const lines = text.split(/\r?\n/);
  let kind: DatasetKind | undefined;
  const items: unknown[] = [];
  const seen = new Set<string>();
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch (err) {
      throw new DatasetError({ file, line }, `not valid JSON (${(err as Error).message})`, err);
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      throw new DatasetError({ file, line }, "each line must hold one JSON object");
    }
    const r = record as Record<string, unknown>;
    const k = kindOf(r);
    if (k === undefined || !(k in READERS)) {
      throw new DatasetError(
        { file, line, field: "kind" },
        "cannot tell the record's kind: give options/choices (multiple choice), levels (ordinal), claims, or answer pass/fail",
      );
    }
    kind ??= k;
    if (k !== kind) throw new DatasetError({ file, line }, `a ${k} record in a ${kind} file (one kind per file)`);
    try {
      const item = READERS[kind](r, `${stem}:${line}`);
      if (seen.has(item.id)) throw new RecordProblem("id", `duplicate id "${item.id}"`);
      seen.add(item.id);
      items.push(item);
    } catch (err) {
      if (err instanceof RecordProblem) throw new DatasetError({ file, line, ...(err.field ? { field: err.field } : {}) }, err.message);
      throw err;
    }
  });
  if (kind === undefined) throw new DatasetError({ file }, "the file holds no records");
  return { kind, items, source: file } as Dataset;
}

/** Writes items as JSON Lines (one object per line, trailing newline). */
export function toJsonLines(items: readonly object[]): string {
  return items.map((i) => JSON.stringify(i)).join("\n") + "\n";
}
