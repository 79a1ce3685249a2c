// MMLU-style CSV (hendrycks/test): `question,A,B,C,D,answer` with the answer a letter. The original
// files have no header; a header row naming the columns is recognised and may add columns (e.g.
// `subject`, which becomes the group) or more option letters.
import { basename } from "node:path";
import { DatasetError } from "../errors.js";
import type { MultipleChoiceItem } from "../types.js";
import { parseCsv } from "./csv.js";

const DEFAULT_COLUMNS = ["question", "A", "B", "C", "D", "answer"];

interface Columns {
  question: number;
  answer: number;
  options: { name: string; index: number }[];
  subject?: number;
  id?: number;
  context?: number;
  names: string[];
}

function columnsOf(header: string[] | undefined, file: string): Columns {
  const names = header ?? DEFAULT_COLUMNS;
  const find = (n: string) => {
    const i = names.findIndex((h) => h.trim().toLowerCase() === n);
    return i < 0 ? undefined : i;
  };
  const question = find("question");
  const answer = find("answer");
  if (question === undefined || answer === undefined) {
    throw new DatasetError({ file, line: 1 }, 'the header must name a "question" and an "answer" column');
  }
  const options = names
    .map((h, index) => ({ name: h.trim(), index }))
    .filter((c) => /^[A-Z]$/.test(c.name));
  if (options.length < 2) throw new DatasetError({ file, line: 1 }, "the header must name at least two option columns (A, B, ...)");
  const cols: Columns = { question, answer, options, names: names.map((n) => n.trim()) };
  const subject = find("subject");
  const id = find("id");
  const context = find("context");
  if (subject !== undefined) cols.subject = subject;
  if (id !== undefined) cols.id = id;
  if (context !== undefined) cols.context = context;
  return cols;
}

function isHeader(fields: string[]): boolean {
  const lower = fields.map((f) => f.trim().toLowerCase());
  return lower.includes("question") && lower.includes("answer") && lower.includes("a") && lower.includes("b");
}

/** Reads MMLU CSV text into multiple-choice items. Every row becomes an item or an error naming its line and field. */
export function importMmluCsv(text: string, file: string): MultipleChoiceItem[] {
  const records = parseCsv(text, file);
  if (records.length === 0) throw new DatasetError({ file }, "the file holds no rows");
  const header = isHeader(records[0]!.fields) ? records[0]!.fields : undefined;
  const cols = columnsOf(header, file);
  const rows = header ? records.slice(1) : records;
  const stem = basename(file).replace(/\.[^.]*$/, "");
  const seen = new Set<string>();
  // hendrycks/test names each file after its subject and split: abstract_algebra_test.csv.
  const fileSubject = /^(.+)_(test|dev|val)$/.exec(stem)?.[1] ?? "";
  return rows.map(({ line, fields }) => {
    if (fields.length !== cols.names.length) {
      throw new DatasetError(
        { file, line },
        `expected ${cols.names.length} columns (${cols.names.join(", ")}), found ${fields.length}`,
      );
    }
    const question = fields[cols.question]!.trim();
    if (question === "") throw new DatasetError({ file, line, field: "question" }, "is empty");
    const options: Record<string, string> = {};
    for (const { name, index } of cols.options) {
      const text = fields[index]!.trim();
      if (text === "") throw new DatasetError({ file, line, field: name }, "option text is empty");
      options[name] = text;
    }
    const answer = fields[cols.answer]!.trim().toUpperCase();
    if (!(answer in options)) {
      throw new DatasetError(
        { file, line, field: "answer" },
        `"${fields[cols.answer]}" is not one of the options ${Object.keys(options).join(", ")}`,
      );
    }
    const id = cols.id !== undefined && fields[cols.id]!.trim() !== "" ? fields[cols.id]!.trim() : `${stem}:${line}`;
    if (seen.has(id)) throw new DatasetError({ file, line, field: "id" }, `duplicate id "${id}"`);
    seen.add(id);
    const item: MultipleChoiceItem = {
      id,
      context: cols.context !== undefined ? fields[cols.context]!.trim() : "",
      question,
      options,
      answer,
    };
    const subject = cols.subject !== undefined ? fields[cols.subject]!.trim() : fileSubject;
    if (subject !== "") {
      item.group = subject;
      item.subject = subject;
    }
    return item;
  });
}
