// The bundled generation set: tiny stories cut where the next words are the answer, in TinyStories' own
// phrases, so that stories260K answers them sensibly — right where the word was named earlier in the story
// or is the phrase's usual end ("best friends", "a happy song"), often wrong elsewhere (a sand castle, a warm
// coat). Each item is a passage to continue (no question); its references are the words that complete it.
import type { GenerationItem } from "../types.js";
import { CHARACTERS, cap, pick, type Character, type Rng, WORDS } from "./words.js";

type Draft = { context: string; references: string[] };
interface AnswerTemplate {
  id: string;
  make(c: Character, o: Character, rng: Rng): Draft;
}

const kid = (c: Character) => (c.he === "he" ? "boy" : "girl");

export const ANSWER_TEMPLATES: readonly AnswerTemplate[] = [
  { id: "toy-play", make: (c, _o, rng) => {
    const toy = pick(rng, WORDS.toy);
    return { context: `${c.name} had a ${pick(rng, WORDS.color)} ${toy}. ${cap(c.he)} liked to play with ${c.his}`, references: [toy] };
  } },
  { id: "toy-found", make: (c, _o, rng) => {
    const toy = pick(rng, WORDS.toy);
    return { context: `${c.name} found a ${toy} under the tree. ${cap(c.he)} was so happy. ${cap(c.he)} picked up the`, references: [toy] };
  } },
  { id: "animal-help", make: (c, _o, rng) => {
    const animal = pick(rng, WORDS.animal);
    return { context: `${c.name} saw a little ${animal} in the ${pick(rng, WORDS.place)}. The ${animal} was hurt. ${c.name} wanted to help the`, references: [animal] };
  } },
  { id: "red-ball", make: (c) => ({ context: `Once upon a time, there was a little ${kid(c)} named ${c.name}. ${cap(c.he)} had a big red`, references: ["ball"] }) },
  { id: "best-friends", make: (c, o) => ({ context: `${c.name} and ${o.name} were best`, references: ["friends"] }) },
  { id: "bird-sky", make: (c) => ({ context: `${c.name} looked up. One day, a little bird was flying in the`, references: ["sky"] }) },
  { id: "bird-song", make: (c, _o, rng) => ({ context: `${c.name} went to the ${pick(rng, WORDS.place)}. A bird sang a happy`, references: ["song"] }) },
  { id: "climb-tree", make: (c) => ({ context: `${c.name} saw a big tree. ${cap(c.he)} wanted to climb the`, references: ["tree"] }) },
  { id: "big-hug", make: (c) => ({ context: `${c.name} was very happy. ${cap(c.he)} gave ${c.his} mom a big`, references: ["hug"] }) },
  { id: "thank-mom", make: (c) => ({ context: `${c.name} said thank you to ${c.his}`, references: ["mom", "mother"] }) },
  { id: "warm-coat", make: (c) => ({ context: `It was a cold day. ${c.name} put on ${c.his} warm`, references: ["coat", "hat"] }) },
  { id: "sand-castle", make: (c, o) => ({ context: `${c.name} and ${o.name} went to the beach. They built a big sand`, references: ["castle"] }) },
  { id: "go-to-bed", make: (c) => ({ context: `${c.name}'s mom said, "${c.name}, it is time to go to`, references: ["bed", "sleep"] }) },
];

const id = (i: number) => `answer-${String(i + 1).padStart(5, "0")}`;

/** `n` items; item i depends only on the generator's state after the i − 1 before it (seeded). */
export function generateStoryAnswers(n: number, rng: Rng): GenerationItem[] {
  return Array.from({ length: n }, (_, i) => {
    const t = pick(rng, ANSWER_TEMPLATES);
    const c = pick(rng, CHARACTERS);
    let o = pick(rng, CHARACTERS);
    while (o.name === c.name) o = pick(rng, CHARACTERS);
    const d = t.make(c, o, rng);
    return { id: id(i), question: "", context: d.context, references: d.references, group: t.id };
  });
}
