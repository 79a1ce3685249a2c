// The ordinal set (interval queries): how big was a thing in the story, on five ordered levels. Half
// the stories name one size, half name two things of different sizes, so the level must be bound to
// the right thing; gold by construction.
import type { OrdinalItem } from "../types.js";
import { CHARACTERS, pick, pickDistinct, type Rng, WORDS } from "./words.js";

export const SIZE_LEVELS = ["tiny", "small", "medium", "big", "huge"] as const;
const THINGS = [...WORDS.toy, "box", "tree", "rock", "house"] as const;

export function generateOrdinal(n: number, rng: Rng): OrdinalItem[] {
  const items: OrdinalItem[] = [];
  for (let i = 0; i < n; i++) {
    const c = pick(rng, CHARACTERS);
    const [thing, otherThing] = pickDistinct(rng, THINGS, 2) as [string, string];
    const [size, otherSize] = pickDistinct(rng, SIZE_LEVELS, 2) as [string, string];
    const two = rng() < 0.5;
    const context = two
      ? `${c.name} saw a ${size} ${thing} and a ${otherSize} ${otherThing}.`
      : `${c.name} saw a ${size} ${thing} near the ${otherThing}.`;
    items.push({
      id: `size-${String(i + 1).padStart(5, "0")}`,
      context,
      question: `How big was the ${thing}? The ${thing} was`,
      levels: [...SIZE_LEVELS],
      answer: size,
      group: two ? "two-things" : "one-thing",
    });
  }
  return items;
}
