// items.jsonl beside summary.json: one JSON object per item, what the model was given and answered, its grade,
// its scores and the service's answer — lm-eval's --log_samples in spirit. Every run writes it through this
// module, atomically once the run ends and in the order it lists the items, so a resumed run writes the same
// file as an uninterrupted one. NaN and ±Infinity are written as null.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../durable/index.js";

export const ITEMS_FILE = "items.jsonl";

/** One line of items.jsonl: the fields every run gives, then those of its kind of item. */
export interface ItemLine {
  [extra: string]: unknown;
  /** The dataset's id (lm-eval's doc_id for --from-lm-eval). */
  id: string;
  /** Calibration items are examples of the profile; test items are asked of the service. */
  split: "calibration" | "test" | "audit" | "monitor";
  /** Exactly what the model was given (a string, or chat messages). */
  prompt: unknown;
  /** The service's answer to the item's query; null for items no query was sent for. */
  answer: unknown;
  /** Multiple choice: {option name: probability} as sent. */
  option_probabilities?: Record<string, number> | null;
  /** The gold answer. */
  label?: unknown;
  /** The model's own answer: its most probable option, or its generated text. */
  model_answer?: unknown;
  /** Free-form: the greedy answer, the sampled answers, the grade by the task's grader. */
  greedy?: string;
  samples?: string[];
  correct?: boolean;
  grader?: string;
  /** Every scorer computed: lm-polygraph's name → its uncertainty (null where undefined). */
  scores?: Record<string, number | null>;
  /** The evidence sent for the item. */
  evidence?: unknown;
}

/** The most probable option of a probability map (the first in the map's order on a tie). */
export function mostProbable(p: Record<string, number>): string | null {
  let best: string | null = null;
  for (const [name, x] of Object.entries(p)) if (best === null || x > p[best]!) best = name;
  return best;
}

const finite = (x: unknown) => (typeof x === "number" && !Number.isFinite(x) ? null : x);

/** items.jsonl's text: one line per item. */
export function itemsJsonl(lines: readonly ItemLine[]): string {
  return lines.map((l) => JSON.stringify(l, (_, v) => finite(v))).join("\n") + (lines.length ? "\n" : "");
}

/** Writes items.jsonl into `dir` (made if missing); returns its path. */
export async function writeItemsLog(dir: string, lines: readonly ItemLine[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, ITEMS_FILE);
  await writeFileAtomic(path, itemsJsonl(lines));
  return path;
}
