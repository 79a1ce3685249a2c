// TruthfulQA multiple choice (`truthful_qa`, config `multiple_choice`): {question, mc1_targets: {choices,
// labels}, mc2_targets}. MC1 has exactly one true answer (label 1); lm-eval's truthfulqa_mc1 scores
// mc1_targets.choices with the gold at index 0, which is where the published file puts it. mc2 (several
// true answers) is not a single-answer task and is ignored.
import type { MultipleChoiceItem } from "../../types.js";
import { RecordProblem } from "../records.js";
import { at, describe, idAt, letters, optionsFrom, stringAt, stringListAt, type Json } from "./fieldPath.js";

export const truthfulqaMc1 = {
  name: "truthfulqa_mc1",
  source: "truthful_qa (multiple_choice)",
  matches: (r: Json) => "mc1_targets" in r,
  read(r: Json, fallbackId: string): MultipleChoiceItem {
    const texts = stringListAt(r, "mc1_targets.choices");
    const names = letters(texts.length, "mc1_targets.choices");
    const options = optionsFrom(names, texts, "mc1_targets.choices");
    const raw = at(r, "mc1_targets.labels");
    if (!Array.isArray(raw)) throw new RecordProblem("mc1_targets.labels", `must be a list of 0/1, got ${describe(raw)}`);
    if (raw.length !== texts.length) throw new RecordProblem("mc1_targets.labels", `holds ${raw.length} labels for ${texts.length} choices`);
    const gold: number[] = [];
    raw.forEach((l: unknown, i) => {
      const v = typeof l === "bigint" ? Number(l) : typeof l === "boolean" ? Number(l) : l;
      if (v !== 0 && v !== 1) throw new RecordProblem(`mc1_targets.labels[${i}]`, `must be 0 or 1, got ${describe(l)}`);
      if (v === 1) gold.push(i);
    });
    if (gold.length !== 1) throw new RecordProblem("mc1_targets.labels", `must mark exactly one true choice, marks ${gold.length}`);
    return { id: idAt(r, "id", fallbackId), context: "", question: stringAt(r, "question", true), options, answer: names[gold[0]!]! };
  },
} as const;
