// How much the story supports a statement, for a model that cannot answer questions: the pointwise mutual
// information of the statement with the story, log p(statement | story) − log p(statement | a neutral story),
// both from the adapter's continuation scores (L2+). A true statement repeats what the story says, so even
// stories260K gives it more likelihood after its own story. σ(PMI) is the probability sent as evidence.
import type { ModelAdapter } from "../../adapters/index.js";
import { RunInputError } from "../errors.js";

export const NEUTRAL_STORY = "Once upon a time there was a child. The child had a toy and a pet. One day, the child went out.";
/** Statements per adapter call. */
export const PMI_BATCH = 16;

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** PMI of each statement with its story, in order; `onBatch` after every batch with the count done. */
export async function statementPmi(adapter: ModelAdapter, pairs: readonly { story: string; statement: string }[], onBatch: (done: number) => void): Promise<number[]> {
  if (!["L2", "L3", "L4"].includes(adapter.accessLevel)) {
    throw new RunInputError(adapter.model, `scores statements by their likelihood, which needs a model at L2 or above (this one is ${adapter.accessLevel})`);
  }
  const out: number[] = [];
  for (let start = 0; start < pairs.length; start += PMI_BATCH) {
    const batch = pairs.slice(start, start + PMI_BATCH);
    const rows = await adapter.scoreContinuations(batch.flatMap((p) => [
      { prefix: p.story, continuations: [` ${p.statement}`] },
      { prefix: NEUTRAL_STORY, continuations: [` ${p.statement}`] },
    ]));
    batch.forEach((_, k) => out.push(rows[2 * k]![0]! - rows[2 * k + 1]![0]!));
    onBatch(batch.length);
  }
  return out;
}
