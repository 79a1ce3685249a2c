// The published layouts of generation tasks, read natively: TriviaQA (`mandarjoshi/trivia_qa`, rc.nocontext),
// Natural Questions open (`google-research-datasets/nq_open`), GSM8K (`openai/gsm8k`, main) and TruthfulQA
// generation (`truthfulqa/truthful_qa`, generation). Values are kept as published; lm-eval's own processing
// (TruthfulQA's added periods, "I have no comment.") belongs to the task, not to the data.
import type { GenerationItem } from "../../types.js";
import { RecordProblem } from "../records.js";
import { at, describe, idAt, stringAt, stringListAt, type Json } from "./fieldPath.js";

export interface GenerationLayout {
  readonly name: string;
  readonly source: string;
  matches(record: Json): boolean;
  read(record: Json, fallbackId: string): GenerationItem;
}

function nonEmptyList(r: Json, path: string): string[] {
  const list = stringListAt(r, path);
  if (list.length === 0) throw new RecordProblem(path, "holds no answers");
  return list;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

export const triviaqa: GenerationLayout = {
  name: "triviaqa",
  source: "mandarjoshi/trivia_qa (rc.nocontext)",
  matches: (r) => isObject(r.answer) && "aliases" in r.answer,
  read(r, fallbackId) {
    stringAt(r, "answer.value", true);
    if (at(r, "answer.normalized_aliases") !== undefined) stringListAt(r, "answer.normalized_aliases");
    return { id: idAt(r, "question_id", fallbackId), question: stringAt(r, "question", true), context: "", references: nonEmptyList(r, "answer.aliases") };
  },
};

export const nqOpen: GenerationLayout = {
  name: "nq_open",
  source: "google-research-datasets/nq_open",
  matches: (r) => typeof r.question === "string" && Array.isArray(r.answer),
  read: (r, fallbackId) => ({ id: idAt(r, "id", fallbackId), question: stringAt(r, "question", true), context: "", references: nonEmptyList(r, "answer") }),
};

export const gsm8k: GenerationLayout = {
  name: "gsm8k",
  source: "openai/gsm8k (main)",
  matches: (r) => typeof r.question === "string" && typeof r.answer === "string" && r.answer.includes("####"),
  read(r, fallbackId) {
    const answer = stringAt(r, "answer", true);
    if (!/####\s*\S/.test(answer)) throw new RecordProblem("answer", `must end in "#### N" (the final number), got ${describe(answer)}`);
    return { id: idAt(r, "id", fallbackId), question: stringAt(r, "question", true), context: "", references: [answer] };
  },
};

export const truthfulqaGen: GenerationLayout = {
  name: "truthfulqa_gen",
  source: "truthfulqa/truthful_qa (generation)",
  matches: (r) => "correct_answers" in r && "incorrect_answers" in r,
  read(r, fallbackId) {
    stringAt(r, "best_answer", true);
    const item: GenerationItem = {
      id: idAt(r, "id", fallbackId), question: stringAt(r, "question", true), context: "",
      references: nonEmptyList(r, "correct_answers"), incorrect: nonEmptyList(r, "incorrect_answers"),
    };
    const category = stringAt(r, "category", false);
    if (category) item.group = category;
    return item;
  },
};

/** Most distinctive first: a GSM8K row and an NQ row differ only in the type of `answer`. */
export const GENERATION_LAYOUTS: readonly GenerationLayout[] = [truthfulqaGen, triviaqa, gsm8k, nqOpen];

export const generationLayoutNamed = (name: string) => GENERATION_LAYOUTS.find((l) => l.name === name);
export const detectGenerationLayout = (r: Json) => GENERATION_LAYOUTS.find((l) => l.matches(r));
