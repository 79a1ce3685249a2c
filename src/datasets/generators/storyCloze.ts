// The story-cloze set: i.i.d. draws from the story templates, 4 options (A–D), gold by construction.
// Item i depends only on the seed and the draws before it, so a larger `n` extends a smaller set.
import type { MultipleChoiceItem } from "../types.js";
import { STORY_TEMPLATES } from "./storyTemplates.js";
import { mentions, pick, pickDistinct, type Rng, WORDS } from "./words.js";

export const OPTION_NAMES = ["A", "B", "C", "D"] as const;

export function generateStoryCloze(n: number, rng: Rng): MultipleChoiceItem[] {
  const items: MultipleChoiceItem[] = [];
  const seen = new Set<string>();
  while (items.length < n) {
    const template = pick(rng, STORY_TEMPLATES);
    const draft = template.make(rng);
    const story = `${draft.context} ${draft.question}`;
    const forced = draft.forced ?? [];
    const pool = draft.distractFrom
      .flatMap((c) => WORDS[c] as readonly string[])
      .filter((w) => w !== draft.answer && !mentions(story, w));
    const words = [draft.answer, ...forced, ...pickDistinct(rng, pool, OPTION_NAMES.length - 1 - forced.length)];
    const order = pickDistinct(rng, [0, 1, 2, 3], 4);
    const options: Record<string, string> = {};
    OPTION_NAMES.forEach((name, i) => (options[name] = words[order[i]!]!));
    const answer = OPTION_NAMES[order.indexOf(0)]!;
    const key = `${story}|${OPTION_NAMES.map((o) => options[o]).join(",")}`;
    if (seen.has(key)) continue; // an exact repeat adds nothing; draw again
    seen.add(key);
    items.push({
      id: `story-${String(items.length + 1).padStart(5, "0")}`,
      context: draft.context,
      question: draft.question,
      options,
      answer,
      group: template.id,
    });
  }
  return items;
}
