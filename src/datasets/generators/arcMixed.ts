// Story-cloze items in ARC's layout (allenai/ai2_arc: question, choices {text, label}, answerKey) with 3, 4
// and 5 options in turn: item i drops a distractor (3), keeps its four (4) or gains one (5) from the other
// items' option words, never one the story mentions; about one item in twenty is labelled 1–K, as some ARC
// rows are. What a file with mixed option counts looks like, with gold by construction.
import type { MultipleChoiceItem } from "../types.js";
import { mentions, pick, pickDistinct, type Rng } from "./words.js";

export interface ArcRecord {
  id: string;
  question: string;
  choices: { text: string[]; label: string[] };
  answerKey: string;
}

export const ARC_MIXED_COUNTS = [3, 4, 5] as const;

export function arcMixedRecords(items: readonly MultipleChoiceItem[], rng: Rng): ArcRecord[] {
  const vocabulary = [...new Set(items.flatMap((i) => Object.values(i.options)))].sort();
  return items.map((item, i) => {
    const K = ARC_MIXED_COUNTS[i % ARC_MIXED_COUNTS.length]!;
    const question = `${item.context} ${item.question ?? ""}`.trim();
    const gold = item.options[item.answer]!;
    const distractors = Object.entries(item.options).filter(([name]) => name !== item.answer).map(([, w]) => w);
    if (K < distractors.length + 1) distractors.splice(Math.floor(rng() * distractors.length), 1);
    if (K > distractors.length + 1) {
      const used = new Set(Object.values(item.options));
      distractors.push(pick(rng, vocabulary.filter((w) => !used.has(w) && !mentions(question, w))));
    }
    const text = pickDistinct(rng, [gold, ...distractors], K);
    const numeric = rng() < 0.05;
    const label = text.map((_, j) => (numeric ? String(j + 1) : "ABCDE"[j]!));
    return { id: `Mixed-${String(i + 1).padStart(4, "0")}`, question, choices: { text, label }, answerKey: label[text.indexOf(gold)]! };
  });
}
