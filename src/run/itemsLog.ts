// items.jsonl: what a run saw and answered, one line per item, in the spirit of lm-eval's `--log_samples`.
// Every run writes it into its output folder through this module, so that a field added later (free-form
// greedy answers, samples, scores) is added in one place. Fields every line has:
//   id                   the dataset's id (lm-eval's doc_id for --from-lm-eval)
//   split                calibration, test, audit or monitor
//   prompt               what the model was given (a string, or chat messages)
//   option_probabilities {option name: probability}, or null when the query has no options
//   label                the gold answer
//   answer               the model's own answer: its most probable option, or its generated text
//   service              the service's answer to the item's query (test items), else null
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const ITEMS_FILE = "items.jsonl";

export interface ItemLogEntry {
  id: string;
  split: "calibration" | "test" | "audit" | "monitor";
  prompt: unknown;
  option_probabilities: Record<string, number> | null;
  label: unknown;
  answer: unknown;
  service: unknown;
  /** Fields of other query kinds (greedy, samples, scores, …). */
  [field: string]: unknown;
}

/** The most probable option of a probability map (the first in the map's order on a tie). */
export function mostProbable(p: Record<string, number>): string | null {
  let best: string | null = null;
  for (const [name, x] of Object.entries(p)) if (best === null || x > p[best]!) best = name;
  return best;
}

export function itemsJsonl(entries: readonly ItemLogEntry[]): string {
  return entries.map((e) => JSON.stringify(e)).join("\n") + (entries.length ? "\n" : "");
}

/** Writes items.jsonl into `dir` (made if missing); returns its path. */
export async function writeItemsLog(dir: string, entries: readonly ItemLogEntry[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, ITEMS_FILE);
  await writeFile(path, itemsJsonl(entries));
  return path;
}
