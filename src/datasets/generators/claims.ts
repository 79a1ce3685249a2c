// The claims set (claim queries): a response about a story split into three claims, each true of the
// story or not by construction (about 60% true).
import type { ClaimsItem } from "../types.js";
import { drawFacts, FACT_KEYS, statement, storyOf } from "./facts.js";
import { pickDistinct, type Rng } from "./words.js";

export function generateClaims(n: number, rng: Rng): ClaimsItem[] {
  const items: ClaimsItem[] = [];
  for (let i = 0; i < n; i++) {
    const f = drawFacts(rng);
    const claims = pickDistinct(rng, FACT_KEYS, 3).map((key) => {
      const correct = rng() < 0.6;
      return { text: statement(f, key, correct, rng), correct };
    });
    items.push({
      id: `claims-${String(i + 1).padStart(5, "0")}`,
      context: storyOf(f),
      question: `What happened to ${f.who.name}?`,
      response: claims.map((c) => c.text).join(" "),
      claims,
    });
  }
  return items;
}
