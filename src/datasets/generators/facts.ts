// A tiny story of four facts, and a way to state each fact truly or falsely. Shared by the claims
// set and the pass/fail set, so both are true or false of their story by construction.
import { type Category, CHARACTERS, type Character, pick, type Rng, WORDS } from "./words.js";

export interface Facts {
  who: Character;
  color: string;
  toy: string;
  animal: string;
  place: string;
}

export function drawFacts(rng: Rng): Facts {
  return {
    who: pick(rng, CHARACTERS),
    color: pick(rng, WORDS.color),
    toy: pick(rng, WORDS.toy),
    animal: pick(rng, WORDS.animal),
    place: pick(rng, WORDS.place),
  };
}

export function storyOf(f: Facts): string {
  return `${f.who.name} had a ${f.color} ${f.toy}. ${f.who.name} had a pet ${f.animal}. One day, ${f.who.name} went to the ${f.place}.`;
}

type FactKey = "color" | "toy" | "animal" | "place";
export const FACT_KEYS: readonly FactKey[] = ["color", "toy", "animal", "place"];
const CATEGORY: Record<FactKey, Category> = { color: "color", toy: "toy", animal: "animal", place: "place" };

/** The fact `key` stated with its true value, or with another value of the same kind when `truthful` is false. */
export function statement(f: Facts, key: FactKey, truthful: boolean, rng: Rng): string {
  let v: Facts = f;
  if (!truthful) {
    const words = WORDS[CATEGORY[key]] as readonly string[];
    let wrong = f[key];
    while (wrong === f[key]) wrong = pick(rng, words);
    v = { ...f, [key]: wrong };
  }
  const n = f.who.name;
  switch (key) {
    case "color": return `The ${f.toy} was ${v.color}.`;
    case "toy": return `${n} had a ${v.toy}.`;
    case "animal": return `${n} had a pet ${v.animal}.`;
    case "place": return `${n} went to the ${v.place}.`;
  }
}
