// Story templates for the cloze set. Each fills its slots from the word groups and returns the story,
// the sentence to complete, its gold word, and the word groups its distractors may come from: groups
// whose words cannot complete that sentence, so the gold answer is the only right one by construction.
import { type Category, CHARACTERS, type Character, cap, pick, pickDistinct, type Rng, WORDS } from "./words.js";

export interface ClozeDraft {
  context: string;
  question: string;
  answer: string;
  distractFrom: Category[];
  /** Distractors that must be among the options (a wrong word the story itself names). */
  forced?: string[];
}

export interface StoryTemplate {
  id: string;
  make(rng: Rng): ClozeDraft;
}

const who = (rng: Rng): Character => pick(rng, CHARACTERS);
const other = (rng: Rng, c: Character): Character => {
  for (;;) {
    const o = pick(rng, CHARACTERS);
    if (o.name !== c.name) return o;
  }
};

// Templates whose gold word is named earlier in the story: a copying model finds it.
const copying: StoryTemplate[] = [
  { id: "toy-play", make(rng) {
    const c = who(rng), toy = pick(rng, WORDS.toy), color = pick(rng, WORDS.color);
    return { context: `${c.name} had a ${color} ${toy}.`, question: `${cap(c.he)} liked to play with ${c.his}`, answer: toy, distractFrom: ["food", "place", "feeling"] };
  } },
  { id: "toy-found", make(rng) {
    const c = who(rng), toy = pick(rng, WORDS.toy);
    return { context: `${c.name} found a ${toy} under the tree. ${cap(c.he)} was so happy.`, question: `${cap(c.he)} picked up the`, answer: toy, distractFrom: ["place", "feeling", "color"] };
  } },
  { id: "animal-help", make(rng) {
    const c = who(rng), animal = pick(rng, WORDS.animal), place = pick(rng, WORDS.place);
    return { context: `${c.name} saw a little ${animal} in the ${place}. The ${animal} was hurt.`, question: `${c.name} wanted to help the`, answer: animal, distractFrom: ["food", "color", "feeling"] };
  } },
  { id: "animal-pet", make(rng) {
    const c = who(rng), animal = pick(rng, WORDS.animal);
    return { context: `${c.name} had a pet ${animal}. ${cap(c.he)} loved it very much.`, question: `Every day, ${c.he} gave food to ${c.his}`, answer: animal, distractFrom: ["place", "color", "feeling"] };
  } },
  { id: "food-ate", make(rng) {
    const c = who(rng), food = pick(rng, WORDS.food);
    return { context: `Mom made a big ${food} for ${c.name}. ${c.name} was very happy.`, question: `${cap(c.he)} ate the`, answer: food, distractFrom: ["place", "color", "animal"] };
  } },
  { id: "food-ask", make(rng) {
    const c = who(rng), food = pick(rng, WORDS.food);
    return { context: `${c.name} wanted to eat a ${food}.`, question: `${cap(c.he)} asked Mom for a`, answer: food, distractFrom: ["place", "color", "feeling"] };
  } },
  { id: "place-went", make(rng) {
    const c = who(rng), place = pick(rng, WORDS.place);
    return { context: `${c.name} and ${c.his} mom went to the ${place}.`, question: `They had fun at the`, answer: place, distractFrom: ["food", "color", "feeling"] };
  } },
  { id: "place-sun", make(rng) {
    const c = who(rng), place = pick(rng, WORDS.place);
    return { context: `The sun was shining, so ${c.name} went to the ${place} to play.`, question: `${cap(c.he)} ran all around the`, answer: place, distractFrom: ["food", "color", "feeling"] };
  } },
  { id: "color-hat", make(rng) {
    const c = who(rng), color = pick(rng, WORDS.color);
    return { context: `${c.name} had a ${color} hat.`, question: `${cap(c.he)} loved the hat because it was`, answer: color, distractFrom: ["toy", "animal", "place"] };
  } },
  { id: "feeling-lost", make(rng) {
    const c = who(rng), toy = pick(rng, WORDS.toy);
    return { context: `${c.name} lost ${c.his} ${toy}. ${cap(c.he)} was very sad.`, question: `${c.name} cried because ${c.he} was`, answer: "sad", distractFrom: ["toy", "food", "place"] };
  } },
  { id: "name-dog", make(rng) {
    const c = who(rng), place = pick(rng, WORDS.place);
    return { context: `Once upon a time, there was a kid named ${c.name}. ${c.name} went to the ${place}.`, question: `A dog ran up to`, answer: c.name, distractFrom: ["food", "color", "feeling"] };
  } },
  { id: "name-gift", make(rng) {
    const c = who(rng), o = other(rng, c), toy = pick(rng, WORDS.toy);
    return { context: `${c.name} gave a ${toy} to ${o.name}.`, question: `The ${toy} was a gift for`, answer: o.name, distractFrom: ["food", "color", "feeling"] };
  } },
];

// Templates whose gold word is a set phrase or common sense: weaker signal for a tiny model.
const phrases: StoryTemplate[] = [
  { id: "phrase-thank", make(rng) {
    const c = who(rng), o = other(rng, c), toy = pick(rng, WORDS.toy);
    return { context: `${c.name} gave ${o.name} a ${toy}. ${o.name} smiled.`, question: `${cap(o.he)} said, "Thank`, answer: "you", distractFrom: ["toy", "food", "color"] };
  } },
  { id: "phrase-friends", make(rng) {
    const c = who(rng), o = other(rng, c);
    return { context: `${c.name} and ${o.name} played together every day.`, question: `They were best`, answer: "friends", distractFrom: ["food", "color", "place"] };
  } },
  { id: "phrase-time", make(rng) {
    const c = who(rng);
    return { context: "", question: `Once upon a time, there was a little kid named ${c.name}. Once upon a`, answer: "time", distractFrom: ["toy", "food", "color"] };
  } },
  { id: "phrase-bed", make(rng) {
    const c = who(rng);
    return { context: `${c.name} was very tired after a long day.`, question: `${cap(c.he)} went to`, answer: "bed", distractFrom: ["food", "color", "feeling"] };
  } },
  { id: "phrase-play", make(rng) {
    const c = who(rng);
    return { context: `The sun was out and the sky was blue.`, question: `${c.name} went outside to`, answer: "play", distractFrom: ["food", "color", "animal"] };
  } },
  { id: "phrase-day", make(rng) {
    const c = who(rng), animal = pick(rng, WORDS.animal);
    return { context: `${c.name} liked to play with ${c.his} ${animal}.`, question: `They played together all`, answer: "day", distractFrom: ["food", "color", "feeling"] };
  } },
  { id: "sense-hungry", make(rng) {
    const c = who(rng), food = pick(rng, WORDS.food);
    return { context: `${c.name} was very hungry.`, question: `${cap(c.he)} wanted to eat some`, answer: food, distractFrom: ["toy", "place", "feeling"] };
  } },
  { id: "sense-sky", make(rng) {
    const c = who(rng);
    return { context: `${c.name} looked up at the sky.`, question: `The sky was`, answer: "blue", distractFrom: ["toy", "food", "animal"] };
  } },
  { id: "sense-hurt", make(rng) {
    const c = who(rng);
    return { context: `${c.name} fell down and hurt ${c.his} knee.`, question: `${cap(c.he)} began to`, answer: "cry", distractFrom: ["toy", "food", "color"] };
  } },
];

// Templates where the story names the gold word and a wrong word of the same kind: the model has to
// bind the word to the right character (or moment), which a tiny model does only now and then.
const binding: StoryTemplate[] = [
  { id: "bind-toys", make(rng) {
    const a = who(rng), b = other(rng, a), [t1, t2] = pickDistinct(rng, WORDS.toy, 2) as [string, string];
    return { context: `${a.name} had a ${t1}. ${b.name} had a ${t2}.`, question: `${a.name} played with ${a.his}`, answer: t1, forced: [t2], distractFrom: ["toy"] };
  } },
  { id: "bind-animals", make(rng) {
    const a = who(rng), b = other(rng, a), [x, y] = pickDistinct(rng, WORDS.animal, 2) as [string, string];
    return { context: `${a.name} saw a ${x} and ${b.name} saw a ${y}.`, question: `${a.name} ran to the`, answer: x, forced: [y], distractFrom: ["animal"] };
  } },
  { id: "bind-food", make(rng) {
    const a = who(rng), b = other(rng, a), [x, y] = pickDistinct(rng, WORDS.food, 2) as [string, string];
    return { context: `${b.name} wanted a ${y}, but ${a.name} wanted a ${x}.`, question: `Mom gave ${a.name} a`, answer: x, forced: [y], distractFrom: ["food"] };
  } },
  { id: "order-places", make(rng) {
    const a = who(rng), [x, y] = pickDistinct(rng, WORDS.place, 2) as [string, string];
    return { context: `First, ${a.name} went to the ${x}. Then ${a.he} went to the ${y}.`, question: `At the end of the day, ${a.name} was at the`, answer: y, forced: [x], distractFrom: ["place"] };
  } },
  { id: "bind-colors", make(rng) {
    const a = who(rng), [x, y] = pickDistinct(rng, WORDS.color, 2) as [string, string];
    return { context: `${a.name} had a ${x} hat and a ${y} bag.`, question: `${cap(a.his)} hat was`, answer: x, forced: [y], distractFrom: ["color"] };
  } },
];

export const STORY_TEMPLATES: readonly StoryTemplate[] = [...copying, ...phrases, ...binding];
