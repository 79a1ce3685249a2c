// The lines of a `calibkit scores` file, parsed by the zod schema of src/api/ and turned into one item's statistics
// at once. A bad line stops the run with its line number and the offending field.
import { readFileSync } from "node:fs";
import { fieldIssues, scoresInputLineSchema } from "../../api/index.js";
import type { ItemStatistics } from "../../uncertainty/index.js";

export class ScoresInputError extends Error {
  override name = "ScoresInputError";
  constructor(readonly file: string, readonly line: number, readonly field: string | undefined, message: string) {
    super(`${file} line ${line}: ${message}`);
  }
}

export interface ScoreLine {
  line: number;
  id: string | number;
  stats: ItemStatistics;
  /** 1 / 0 for a boolean, the graded quality as given, NaN when absent. */
  correct: number;
}

/** Parses one line's text; throws ScoresInputError naming the line and the field. */
export function parseScoreLine(file: string, line: number, text: string): ScoreLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ScoresInputError(file, line, undefined, `not valid JSON (${(e as Error).message})`);
  }
  const parsed = scoresInputLineSchema.safeParse(value);
  if (!parsed.success) {
    const issues = fieldIssues(parsed.error);
    const shown = issues.slice(0, 3).map((i) => i.message).join("; ");
    throw new ScoresInputError(file, line, issues[0]?.field, issues.length > 3 ? `${shown}; and ${issues.length - 3} more` : shown);
  }
  const { id, correct, ...stats } = parsed.data;
  return { line, id, stats, correct: correct === undefined ? NaN : typeof correct === "boolean" ? Number(correct) : correct };
}

/** Every non-blank line of the file, in order. */
export function* readScoreLines(file: string): Generator<ScoreLine> {
  const text = readFileSync(file, "utf8");
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const row = text.slice(start, end);
    start = end + 1;
    if (row.trim() !== "") yield parseScoreLine(file, line, row);
  }
}
