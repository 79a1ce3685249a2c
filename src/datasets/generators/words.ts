// The small world of the generated stories: words TinyStories uses all the time, grouped by the role
// they play, so that a template can pick its gold answer from one group and its distractors from
// groups that cannot fit the blank (gold by construction).

export type Rng = () => number;

export interface Character {
  name: string;
  /** Subject pronoun, capitalised form is derived. */
  he: "he" | "she";
  /** Possessive pronoun. */
  his: "his" | "her";
}

export const CHARACTERS: readonly Character[] = [
  { name: "Lily", he: "she", his: "her" },
  { name: "Tom", he: "he", his: "his" },
  { name: "Ben", he: "he", his: "his" },
  { name: "Sue", he: "she", his: "her" },
  { name: "Max", he: "he", his: "his" },
  { name: "Mia", he: "she", his: "her" },
  { name: "Tim", he: "he", his: "his" },
  { name: "Anna", he: "she", his: "her" },
  { name: "Sam", he: "he", his: "his" },
  { name: "Lucy", he: "she", his: "her" },
];

export const WORDS = {
  toy: ["ball", "doll", "kite", "car", "boat", "drum"],
  animal: ["dog", "cat", "bird", "fish", "frog", "duck"],
  food: ["cake", "apple", "cookie", "soup", "bread", "candy"],
  place: ["park", "garden", "beach", "forest", "school", "shop"],
  color: ["red", "blue", "green", "yellow", "pink", "purple"],
  feeling: ["happy", "sad", "scared", "angry", "tired", "proud"],
} as const;

export type Category = keyof typeof WORDS;
export const CATEGORIES = Object.keys(WORDS) as Category[];

export function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)]!;
}

/** `count` distinct entries of `list`, in random order. */
export function pickDistinct<T>(rng: Rng, list: readonly T[], count: number): T[] {
  if (count > list.length) throw new RangeError(`cannot pick ${count} distinct of ${list.length}`);
  const pool = [...list];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Does the text use this word as a whole word (so a distractor never repeats something in the story)? */
export function mentions(text: string, word: string): boolean {
  return new RegExp(`\\b${word}\\b`, "i").test(text);
}
