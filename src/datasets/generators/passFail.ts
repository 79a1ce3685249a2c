// The pass/fail set (gates): a statement about a story passes when it is true of the story; half pass.
import type { PassFailItem } from "../types.js";
import { drawFacts, FACT_KEYS, statement, storyOf } from "./facts.js";
import { pick, type Rng } from "./words.js";

export function generatePassFail(n: number, rng: Rng): PassFailItem[] {
  const items: PassFailItem[] = [];
  for (let i = 0; i < n; i++) {
    const f = drawFacts(rng);
    const key = pick(rng, FACT_KEYS);
    const pass = rng() < 0.5;
    items.push({
      id: `check-${String(i + 1).padStart(5, "0")}`,
      context: storyOf(f),
      question: statement(f, key, pass, rng),
      answer: pass ? "pass" : "fail",
      group: key,
    });
  }
  return items;
}
