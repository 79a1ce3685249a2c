// items.jsonl beside summary.json: one JSON object per item, what the model was given and answered, its grade,
// its scores and the service's answer — lm-eval's --log_samples in spirit. Written atomically once the run ends,
// in the order of the dataset, so a resumed run writes the same file as an uninterrupted one.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../durable/index.js";

export const ITEMS_FILE = "items.jsonl";

/** One line of items.jsonl; free-form runs give every field below, other runs those they have. */
export interface ItemLine {
  [extra: string]: unknown;
  id: string;
  /** calibration items are examples of the profile; test items are asked of the service. */
  split: "calibration" | "test";
  /** Exactly the text the model was given. */
  prompt: string;
  /** The greedy answer. */
  greedy?: string;
  /** The sampled answers. */
  samples?: string[];
  /** The grade of the greedy answer by the task's grader. */
  correct?: boolean;
  grader?: string;
  /** Every scorer computed: lm-polygraph's name → its uncertainty (null where undefined). */
  scores?: Record<string, number | null>;
  /** The evidence sent for the item. */
  evidence?: unknown;
  /** The service's answer to the item's query; null for calibration items. */
  answer: unknown;
}

const finite = (x: unknown) => (typeof x === "number" && !Number.isFinite(x) ? null : x);

/** items.jsonl's text: one line per item, NaN and ±Infinity written as null. */
export function itemsJsonl(lines: readonly ItemLine[]): string {
  return lines.map((l) => JSON.stringify(l, (_, v) => finite(v))).join("\n") + (lines.length ? "\n" : "");
}

/** Writes items.jsonl into `dir`; returns its path. */
export async function writeItemsLog(dir: string, lines: readonly ItemLine[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, ITEMS_FILE);
  await writeFileAtomic(path, itemsJsonl(lines));
  return path;
}
