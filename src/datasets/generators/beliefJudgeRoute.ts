// The yes/no set (belief queries), the pairwise set (judge queries) and the reference set (route queries),
// all from the same tiny stories as the claims and pass/fail sets, so each is right or wrong by construction.
import type { PairwiseItem, ReferenceItem, YesNoItem } from "../types.js";
import { drawFacts, FACT_KEYS, statement, storyOf } from "./facts.js";
import { pick, type Rng } from "./words.js";

const id = (prefix: string, i: number) => `${prefix}-${String(i + 1).padStart(5, "0")}`;

/** A statement about the story, true (answer yes) about half the time. */
export function generateYesNo(n: number, rng: Rng): YesNoItem[] {
  return Array.from({ length: n }, (_, i) => {
    const f = drawFacts(rng);
    const key = pick(rng, FACT_KEYS);
    const yes = rng() < 0.5;
    return { id: id("yesno", i), context: storyOf(f), question: statement(f, key, yes, rng), answer: yes ? "yes" : "no", group: key };
  });
}

/** Two statements about the same fact, one true: the true one is the better candidate (a or b at random). */
export function generatePairwise(n: number, rng: Rng): PairwiseItem[] {
  return Array.from({ length: n }, (_, i) => {
    const f = drawFacts(rng);
    const key = pick(rng, FACT_KEYS);
    const truthful = statement(f, key, true, rng);
    const wrong = statement(f, key, false, rng);
    const first = rng() < 0.5;
    return {
      id: id("pair", i), context: storyOf(f), question: "Which sentence is true of the story?",
      candidates: first ? { a: truthful, b: wrong } : { a: wrong, b: truthful }, answer: first ? "a" : "b", group: key,
    };
  });
}

/** The story with its last word left out: a correct continuation starts with that word (the place). */
export function generateReference(n: number, rng: Rng): ReferenceItem[] {
  return Array.from({ length: n }, (_, i) => {
    const f = drawFacts(rng);
    const story = storyOf(f);
    return { id: id("ref", i), context: story.slice(0, story.lastIndexOf(" ")), reference: f.place, group: "place" };
  });
}
