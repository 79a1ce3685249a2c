// Any per-item model output through the evidence cache (#13): rows already computed under the same key are
// read back; the rest are computed in the batches an uncached run would form (so a resumed run scores each
// item beside the same neighbours and gets the same numbers), and each batch is committed in one
// transaction the moment its computation returns, before anything else runs: a kill can only cost the
// batch the model was computing at that instant.
import { createHash } from "node:crypto";
import type { EvidenceCache, EvidenceKey } from "../store/index.js";

export interface CachedRowsOptions<I, R> {
  /** null: no cache (`--no-cache`), every row computed. */
  cache: EvidenceCache | null;
  /** The model as the user named it, kept beside the rows for `calibkit cache list`. */
  model: string;
  /** Everything the row depends on; two items with one key share one row. */
  key: (item: I, index: number) => EvidenceKey;
  /** Items per computation, as an uncached run forms them. */
  batch: number;
  compute: (items: readonly I[]) => Promise<R[]>;
  /** After each batch (read or computed), with its count. */
  onBatch?: (done: number) => void;
}

export interface CachedRowsResult<R> {
  rows: R[];
  /** Rows read from the cache. */
  hits: number;
  /** Rows computed in this call. */
  computed: number;
  /** Of those, rows an earlier process was computing when it stopped (killed mid-batch): computed again. */
  redone: number;
}

/** `sha256:<hex>` of a JSON payload: what an item or a recipe contributes to a cache key. */
export const payloadHash = (payload: unknown): string => `sha256:${createHash("sha256").update(JSON.stringify(payload)).digest("hex")}`;

export async function cachedRows<I, R>(items: readonly I[], o: CachedRowsOptions<I, R>): Promise<CachedRowsResult<R>> {
  const { cache } = o;
  if (!cache) {
    const rows: R[] = [];
    for (let start = 0; start < items.length; start += o.batch) {
      const part = await o.compute(items.slice(start, start + o.batch));
      rows.push(...part);
      o.onBatch?.(part.length);
    }
    return { rows, hits: 0, computed: items.length, redone: 0 };
  }
  const keys = items.map((item, i) => o.key(item, i));
  const found = cache.getMany(keys);
  const out: (R | undefined)[] = items.map((_, i) => found.get(i) as R | undefined);
  if (found.size > 0) o.onBatch?.(found.size);
  const redone = cache.reclaim(keys.filter((_, i) => out[i] === undefined));
  let computed = 0;
  for (let start = 0; start < items.length; start += o.batch) {
    const missing = [...Array(Math.min(o.batch, items.length - start)).keys()].map((k) => start + k).filter((i) => out[i] === undefined);
    if (missing.length === 0) continue;
    cache.begin(missing.map((i) => keys[i]!));
    const rows = await o.compute(missing.map((i) => items[i]!));
    cache.putMany(missing.map((i, k) => ({ key: keys[i]!, model: o.model, evidence: rows[k] })));
    missing.forEach((i, k) => (out[i] = rows[k]));
    computed += missing.length;
    o.onBatch?.(missing.length);
  }
  return { rows: out as R[], hits: found.size, computed, redone };
}
