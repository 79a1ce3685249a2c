// Loads a dataset file by its extension: .jsonl / .ndjson (JSON Lines), .parquet, or .csv (MMLU-style).
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { DatasetError } from "./errors.js";
import { importJsonLines } from "./importers/jsonLines.js";
import { importMmluCsv } from "./importers/mmluCsv.js";
import type { DatasetOptions } from "./importers/objectRecords.js";
import { importParquet } from "./importers/parquet.js";
import type { Dataset } from "./types.js";

export const DATASET_EXTENSIONS = [".jsonl", ".ndjson", ".csv", ".parquet"] as const;

function checkCsvOptions(file: string, options: DatasetOptions): void {
  if (options.fields) throw new DatasetError({ file, field: "fields" }, "a field mapping applies to JSON Lines and Parquet files; a CSV file is read in the MMLU layout");
  const layout = options.layout ?? "auto";
  if (!["auto", "mmlu", "calibkit"].includes(layout)) {
    throw new DatasetError({ file, field: "layout" }, `a CSV file is read in the MMLU layout, not "${layout}"`);
  }
}

/** Parses dataset text; `file` names it in errors and picks the format (Parquet, being binary, goes through loadDataset). */
export function parseDataset(text: string, file: string, options: DatasetOptions = {}): Dataset {
  const ext = extname(file).toLowerCase();
  if (ext === ".csv") {
    checkCsvOptions(file, options);
    return { kind: "multiple_choice", items: importMmluCsv(text, file), source: file };
  }
  if (ext === ".jsonl" || ext === ".ndjson") return importJsonLines(text, file, options);
  throw new DatasetError({ file }, `unknown dataset format "${ext || "(none)"}"; use ${DATASET_EXTENSIONS.join(", ")}`);
}

export async function loadDataset(file: string, options: DatasetOptions = {}): Promise<Dataset> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new DatasetError({ file }, `cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`, err);
  }
  if (extname(file).toLowerCase() === ".parquet") return importParquet(bytes, file, options);
  return parseDataset(bytes.toString("utf8"), file, options);
}
