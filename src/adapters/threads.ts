// Thread choice for CPU inference. Measured (docs/adapters.md): for a model of a few MB the per-token work
// is so small that synchronising threads costs more than it saves, and on shared cores extra threads
// contend; a large model is compute-bound and wants every core.
import { availableParallelism } from "node:os";

/** Models below this size run on one thread. */
export const SMALL_MODEL_BYTES = 64 * 1024 * 1024;

export function chooseThreads(modelBytes: number, cores = availableParallelism()): number {
  if (modelBytes < SMALL_MODEL_BYTES) return 1;
  return Math.max(1, cores);
}
