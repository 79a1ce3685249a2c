// CommonsenseQA in both published layouts: the Hugging Face one (`tau/commonsense_qa`: id, question,
// question_concept, choices {label, text}, answerKey) and the original JSON Lines of the authors
// ({answerKey, id, question: {question_concept, choices: [{label, text}], stem}}). question_concept is
// the ConceptNet concept the question was written from; it is kept as the item's group.
import type { MultipleChoiceItem } from "../../types.js";
import { RecordProblem } from "../records.js";
import { at, describe, idAt, optionsFrom, stringAt, type Json } from "./fieldPath.js";
import { goldOf } from "./gold.js";
import { isLabelled, labelledChoicesOf } from "./arc.js";

function originalOf(r: Json, fallbackId: string): MultipleChoiceItem {
  const raw = at(r, "question.choices");
  if (!Array.isArray(raw)) throw new RecordProblem("question.choices", `must be a list of {label, text}, got ${describe(raw)}`);
  const names: string[] = [];
  const texts: string[] = [];
  raw.forEach((c: unknown, i) => {
    if (c === null || typeof c !== "object") throw new RecordProblem(`question.choices[${i}]`, "must be an object {label, text}");
    const o = c as Json;
    if (typeof o.label !== "string") throw new RecordProblem(`question.choices[${i}].label`, `must be a string, got ${describe(o.label)}`);
    if (typeof o.text !== "string") throw new RecordProblem(`question.choices[${i}].text`, `must be a string, got ${describe(o.text)}`);
    names.push(o.label.trim());
    texts.push(o.text);
  });
  const options = optionsFrom(names, texts, "question.choices");
  const item: MultipleChoiceItem = {
    id: idAt(r, "id", fallbackId), context: "", question: stringAt(r, "question.stem", true), options,
    answer: goldOf(at(r, "answerKey"), options, "answerKey"),
  };
  const concept = stringAt(r, "question.question_concept", false);
  if (concept) item.group = concept;
  return item;
}

export const commonsenseQa = {
  name: "commonsense_qa",
  source: "tau/commonsense_qa",
  matches: (r: Json) => "answerKey" in r && ("question_concept" in r || (typeof r.question === "object" && r.question !== null)),
  read(r: Json, fallbackId: string): MultipleChoiceItem {
    if (typeof r.question === "object" && r.question !== null) return originalOf(r, fallbackId);
    if (!isLabelled(r.choices)) throw new RecordProblem("choices", "must be an object {label: [...], text: [...]}");
    return labelledChoicesOf(r, fallbackId, stringAt(r, "question_concept", false));
  },
} as const;
