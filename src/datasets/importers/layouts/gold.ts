// The gold option of a record, however its layout spells it: an option name ("B", "2"), a 0-based
// index (a number, or an integer string where no option is named so), or the gold option's text.
import { RecordProblem } from "../records.js";
import { describe } from "./fieldPath.js";

export function goldOf(value: unknown, options: Record<string, string>, path: string): string {
  const names = Object.keys(options);
  const byIndex = (i: number) => {
    if (!Number.isInteger(i) || i < 0 || i >= names.length) throw new RecordProblem(path, `index ${i} is outside 0..${names.length - 1}`);
    return names[i]!;
  };
  if (typeof value === "number") return byIndex(value);
  if (typeof value === "bigint") return byIndex(Number(value));
  if (typeof value !== "string") {
    throw new RecordProblem(path, value === undefined || value === null ? "is missing" : `must be an option name or an index, got ${describe(value)}`);
  }
  const v = value.trim();
  if (v === "") throw new RecordProblem(path, "is empty (an unlabelled split, such as a test split, cannot calibrate)");
  if (v in options) return v;
  if (v.toUpperCase() in options) return v.toUpperCase();
  const byText = names.filter((n) => options[n]!.trim() === v);
  if (byText.length === 1) return byText[0]!;
  if (/^\d+$/.test(v)) return byIndex(Number(v));
  throw new RecordProblem(path, `"${value}" is not one of the options ${names.join(", ")}`);
}
