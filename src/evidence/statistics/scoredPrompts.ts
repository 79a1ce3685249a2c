// Scored prompts in batches: each prompt's continuations' log-probabilities from one scoreContinuations call
// (L2+: one shared-prefix batch), or one first-token call per prompt at L1; and p(yes) over {yes, no}.
import type { ModelAdapter, ScoreItem } from "../../adapters/index.js";
import { levelRank } from "../../api/index.js";

/** How scored prompts reach the model: as plain text, or rendered with the task's chat template. */
export interface JudgeOptions {
  /** Renders a prompt as the task's own prompts are rendered (a chat template's user turn); default none. */
  render?: (text: string) => Promise<string>;
  signal?: AbortSignal;
}

export interface Ask { text: string; continuations: readonly string[] }

/** Log-probabilities of each ask's continuations, in one batch at L2+. */
export async function scoreAsks(adapter: ModelAdapter, asks: readonly Ask[], o: JudgeOptions = {}): Promise<number[][]> {
  if (asks.length === 0) return [];
  const rendered = o.render !== undefined;
  const prefixes = await Promise.all(asks.map((a) => (o.render ? o.render(a.text) : a.text)));
  const call = { rendered, ...(o.signal ? { signal: o.signal } : {}) };
  if (levelRank(adapter.accessLevel) >= 2) {
    const items: ScoreItem[] = asks.map((a, i) => ({ prefix: prefixes[i]!, continuations: [...a.continuations], rendered }));
    return adapter.scoreContinuations(items, call);
  }
  const out: number[][] = [];
  for (let i = 0; i < asks.length; i++) out.push(await adapter.firstTokenLogProbs(prefixes[i]!, [...asks[i]!.continuations], call));
  return out;
}

/** p(yes) over {yes, no} from the two log-probabilities. */
export const yesShare = ([yes, no]: readonly number[]): number => {
  const m = Math.max(yes!, no!);
  const a = Math.exp(yes! - m), b = Math.exp(no! - m);
  return a / (a + b);
};
