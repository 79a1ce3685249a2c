// HellaSwag (`Rowan/hellaswag`, and the authors' hellaswag_*.jsonl): {ind, activity_label, ctx_a, ctx_b,
// ctx, endings: [4], label}. The context and endings are cleaned exactly as lm-evaluation-harness's
// hellaswag task does (utils.py: activity_label + ": " + ctx_a + " " + ctx_b.capitalize(), WikiHow
// bracket artefacts removed), so a cloze prompt here is the prompt lm-eval scores. The label is an
// integer in the authors' files and a string ("0"–"3") on the Hub; the Hub's test split has "" there.
import type { MultipleChoiceItem } from "../../types.js";
import { RecordProblem } from "../records.js";
import { at, idAt, letters, optionsFrom, stringAt, stringListAt, type Json } from "./fieldPath.js";

/** lm-eval's `preprocess`: strip, " [title]" → ". ", drop every "[...]", then one pass of "  " → " ". */
export function hellaswagClean(text: string): string {
  return text.trim().replaceAll(" [title]", ". ").replace(/\[.*?\]/g, "").replaceAll("  ", " ");
}

/** Python's str.capitalize(): the first character upper case, the rest lower case. */
const capitalize = (s: string) => (s === "" ? s : s[0]!.toUpperCase() + s.slice(1).toLowerCase());

function labelIndex(value: unknown, count: number): number {
  const n = typeof value === "bigint" ? Number(value) : typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof value === "string" && value.trim() === "") throw new RecordProblem("label", "is empty (the test split of HellaSwag is unlabelled)");
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n >= count) {
    throw new RecordProblem("label", `must be an index 0..${count - 1} into endings, got ${JSON.stringify(typeof value === "bigint" ? Number(value) : value) ?? "nothing"}`);
  }
  return n;
}

export const hellaswag = {
  name: "hellaswag",
  source: "Rowan/hellaswag",
  matches: (r: Json) => "endings" in r && ("ctx" in r || "ctx_a" in r),
  read(r: Json, fallbackId: string): MultipleChoiceItem {
    const endings = stringListAt(r, "endings");
    const names = letters(endings.length, "endings");
    const options = optionsFrom(names, endings.map(hellaswagClean), "endings");
    const activity = stringAt(r, "activity_label", true);
    const ctxA = stringAt(r, "ctx_a", false);
    const ctx = ctxA !== undefined ? `${ctxA} ${capitalize(stringAt(r, "ctx_b", false) ?? "")}` : stringAt(r, "ctx", true);
    const item: MultipleChoiceItem = {
      id: idAt(r, at(r, "ind") !== undefined ? "ind" : "id", fallbackId),
      context: hellaswagClean(`${activity}: ${ctx}`),
      options,
      answer: names[labelIndex(at(r, "label"), endings.length)]!,
      group: activity,
    };
    return item;
  },
} as const;
