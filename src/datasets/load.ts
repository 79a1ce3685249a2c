// Loads a dataset file by its extension: .jsonl / .ndjson (JSON Lines) or .csv (MMLU-style).
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { DatasetError } from "./errors.js";
import { importJsonLines } from "./importers/jsonLines.js";
import { importMmluCsv } from "./importers/mmluCsv.js";
import type { Dataset } from "./types.js";

export const DATASET_EXTENSIONS = [".jsonl", ".ndjson", ".csv"] as const;

/** Parses dataset text; `file` names it in errors and picks the format. */
export function parseDataset(text: string, file: string): Dataset {
  const ext = extname(file).toLowerCase();
  if (ext === ".csv") return { kind: "multiple_choice", items: importMmluCsv(text, file), source: file };
  if (ext === ".jsonl" || ext === ".ndjson") return importJsonLines(text, file);
  throw new DatasetError({ file }, `unknown dataset format "${ext || "(none)"}"; use ${DATASET_EXTENSIONS.join(", ")}`);
}

export async function loadDataset(file: string): Promise<Dataset> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new DatasetError({ file }, `cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`, err);
  }
  return parseDataset(text, file);
}
