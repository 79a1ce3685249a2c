// Choice evidence through the evidence cache (#13): rows already computed for this model, prompt settings,
// item content and access level are read back; the rest are computed in the batches an uncached run would
// form (so a resumed run scores each item beside the same neighbours and gets the same numbers) and each
// batch is committed as one transaction as soon as it is scored (cachedRows.ts).
import { createHash } from "node:crypto";
import type { AccessLevel, Evidence } from "../api/index.js";
import type { EvidenceCache } from "../store/index.js";
import { cachedRows } from "./cachedRows.js";
import { CHOICE_BATCH, choiceEvidence, type ChoiceEvidenceOptions } from "./choiceEvidence.js";
import type { PromptItem } from "./format/index.js";

export interface CachedEvidenceOptions extends ChoiceEvidenceOptions {
  /** null: no cache (`--no-cache`), every row computed. */
  cache: EvidenceCache | null;
  fingerprint: string;
  promptHash: string;
  /** The model as the user named it, kept beside the rows for `calibkit cache list`. */
  model: string;
}

export interface CachedEvidenceResult {
  evidence: Evidence[];
  /** Rows read from the cache. */
  hits: number;
  /** Rows computed by the model in this call. */
  computed: number;
  /** Of those, rows a stopped run was computing when it was killed. */
  redone: number;
}

/** What of an item the evidence depends on: its text and choices, not its id or gold answer. */
export function itemContentHash(item: PromptItem, type: "set" | "interval"): string {
  const { id: _id, answer: _answer, ...content } = item;
  const payload = JSON.stringify({ v: 1, type, content });
  return `sha256:${createHash("sha256").update(payload).digest("hex")}`;
}

export async function cachedChoiceEvidence(items: readonly PromptItem[], options: CachedEvidenceOptions): Promise<CachedEvidenceResult> {
  if (!options.cache) return { evidence: await choiceEvidence(items, options), hits: 0, computed: items.length, redone: 0 };
  const { rows, hits, computed, redone } = await cachedRows<PromptItem, Evidence>(items, {
    cache: options.cache, model: options.model, batch: CHOICE_BATCH,
    key: (item) => ({
      fingerprint: options.fingerprint, promptHash: options.promptHash, contentHash: itemContentHash(item, options.type),
      accessLevel: options.level satisfies AccessLevel, sampling: "{}",
    }),
    compute: (batch) => choiceEvidence(batch, { ...options, onBatch: undefined }),
    ...(options.onBatch ? { onBatch: options.onBatch } : {}),
  });
  return { evidence: rows, hits, computed, redone };
}
