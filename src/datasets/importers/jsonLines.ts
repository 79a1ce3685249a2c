// JSON Lines: one object per line (blank lines skipped), read as calibkit's records or a published
// layout (importers/objectRecords.ts).
import { DatasetError } from "../errors.js";
import type { Dataset } from "../types.js";
import { importObjects, type DatasetOptions, type Positioned } from "./objectRecords.js";

function* parsedLines(text: string, file: string): Generator<Positioned> {
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    if (raw.trim() === "") continue;
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch (err) {
      throw new DatasetError({ file, line: index + 1 }, `not valid JSON (${(err as Error).message})`, err);
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      throw new DatasetError({ file, line: index + 1 }, "each line must hold one JSON object");
    }
    yield { position: index + 1, record };
  }
}

/** Reads JSON Lines text into a dataset; every non-blank line is an item or an error naming the line. */
export function importJsonLines(text: string, file: string, options: DatasetOptions = {}): Dataset {
  return importObjects(parsedLines(text, file), file, "line", options);
}

/** Writes items as JSON Lines (one object per line, trailing newline). */
export function toJsonLines(items: readonly object[]): string {
  return items.map((i) => JSON.stringify(i)).join("\n") + "\n";
}
