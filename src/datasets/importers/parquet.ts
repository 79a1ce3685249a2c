// Parquet (the Hugging Face Hub's format for every dataset) through hyparquet, a maintained pure
// JavaScript reader with no native code: rows come back as objects, nested lists and structs included
// (`choices: {text: [...], label: [...]}`), then go through the same readers as JSON Lines.
import { parquetReadObjects } from "hyparquet";
import { DatasetError } from "../errors.js";
import type { Dataset } from "../types.js";
import { importObjects, type DatasetOptions, type Positioned } from "./objectRecords.js";

/** 64-bit integers arrive as BigInt; a safe one becomes a number (an MMLU answer index, an id). */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array) && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

export async function importParquet(bytes: Uint8Array, file: string, options: DatasetOptions = {}): Promise<Dataset> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let rows: Record<string, unknown>[];
  try {
    rows = await parquetReadObjects({ file: buffer });
  } catch (err) {
    throw new DatasetError({ file }, `not a readable Parquet file (${(err as Error).message})`, err);
  }
  const positioned: Positioned[] = rows.map((record, i) => ({ position: i + 1, record: plain(record) }));
  return importObjects(positioned, file, "row", options);
}
