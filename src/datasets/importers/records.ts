// Turns one parsed JSON object into a dataset item of a known kind, accepting the shapes users have:
// calibkit's own records, Hugging Face MMLU rows ({question, choices, answer: index}) and MMLU rows
// as objects ({question, A, B, C, D, answer}). Every rejection names the field.
import type { ClaimsItem, DatasetKind, LabelledClaim, MultipleChoiceItem, OrdinalItem, PairwiseItem, PassFailItem, ReferenceItem, YesNoItem } from "../types.js";

/** A problem with one field of one record; the reader adds the file and line. */
export class RecordProblem extends Error {
  constructor(readonly field: string | undefined, message: string) {
    super(message);
  }
}

type Json = Record<string, unknown>;
const LETTERS = "ABCDEFGHIJ";

/** The kind a record has, from the fields it carries; undefined when no kind fits. */
export function kindOf(r: Json): DatasetKind | undefined {
  if (typeof r.kind === "string") return r.kind as DatasetKind;
  if ("claims" in r) return "claims";
  if ("levels" in r) return "ordinal";
  if ("candidates" in r) return "pairwise";
  if ("reference" in r) return "reference";
  if ("references" in r) return "generation";
  if ("options" in r || "choices" in r || ("A" in r && "B" in r)) return "multiple_choice";
  if (r.answer === "pass" || r.answer === "fail") return "pass_fail";
  if (r.answer === "yes" || r.answer === "no") return "yes_no";
  return undefined;
}

function text(r: Json, key: string, required: boolean): string | undefined {
  const v = r[key];
  if (v === undefined || v === null) {
    if (required) throw new RecordProblem(key, "is missing");
    return undefined;
  }
  if (typeof v !== "string") throw new RecordProblem(key, `must be a string, got ${typeof v}`);
  if (required && v.trim() === "") throw new RecordProblem(key, "is empty");
  return v;
}

function common(r: Json, fallbackId: string): { id: string; context: string; question?: string; group?: string } {
  const rawId = r.id;
  if (rawId !== undefined && typeof rawId !== "string" && typeof rawId !== "number") {
    throw new RecordProblem("id", "must be a string or a number");
  }
  const out: { id: string; context: string; question?: string; group?: string } = {
    id: rawId === undefined ? fallbackId : String(rawId),
    context: text(r, "context", false) ?? "",
  };
  const question = text(r, "question", false);
  if (question !== undefined) out.question = question;
  const group = text(r, "group", false) ?? text(r, "subject", false);
  if (group !== undefined && group !== "") out.group = group;
  return out;
}

function optionsOf(r: Json): Record<string, string> {
  const raw = r.options ?? r.choices;
  const key = r.options !== undefined ? "options" : "choices";
  let options: Record<string, string> = {};
  if (Array.isArray(raw)) {
    if (raw.length > LETTERS.length) throw new RecordProblem(key, `at most ${LETTERS.length} options as a list`);
    raw.forEach((t, i) => {
      if (typeof t !== "string") throw new RecordProblem(`${key}[${i}]`, "must be a string");
      options[LETTERS[i]!] = t;
    });
  } else if (raw !== undefined && raw !== null && typeof raw === "object") {
    for (const [name, t] of Object.entries(raw)) {
      if (typeof t !== "string") throw new RecordProblem(`${key}.${name}`, "must be a string");
      options[name] = t;
    }
  } else if (raw === undefined) {
    options = {};
    for (const letter of LETTERS) {
      const t = r[letter];
      if (t === undefined) break;
      if (typeof t !== "string") throw new RecordProblem(letter, "must be a string");
      options[letter] = t;
    }
  } else {
    throw new RecordProblem(key, "must be a list of texts or a map of name to text");
  }
  if (Object.keys(options).length < 2) throw new RecordProblem(key, "needs at least 2 options");
  return options;
}

/** The gold option name from a name, a letter, or a 0-based index into the options. */
function answerOf(r: Json, names: string[]): string {
  const a = r.answer;
  if (typeof a === "number") {
    if (!Number.isInteger(a) || a < 0 || a >= names.length) {
      throw new RecordProblem("answer", `index ${a} is outside 0..${names.length - 1}`);
    }
    return names[a]!;
  }
  if (typeof a !== "string") throw new RecordProblem("answer", a === undefined ? "is missing" : "must be an option name or an index");
  if (names.includes(a)) return a;
  const upper = a.trim().toUpperCase();
  if (names.includes(upper)) return upper;
  throw new RecordProblem("answer", `"${a}" is not one of the options ${names.join(", ")}`);
}

export function multipleChoiceOf(r: Json, fallbackId: string): MultipleChoiceItem {
  const options = optionsOf(r);
  const item: MultipleChoiceItem = { ...common(r, fallbackId), options, answer: answerOf(r, Object.keys(options)) };
  const subject = text(r, "subject", false)?.trim();
  if (subject) item.subject = subject;
  if (item.context === "" && (item.question === undefined || item.question.trim() === "")) {
    throw new RecordProblem("question", "a record needs a context or a question");
  }
  return item;
}

export function ordinalOf(r: Json, fallbackId: string): OrdinalItem {
  const levels = r.levels;
  if (!Array.isArray(levels) || levels.length < 2 || levels.length > 10) {
    throw new RecordProblem("levels", "must be a list of 2 to 10 levels");
  }
  const names = levels.map((l, i) => {
    if (typeof l !== "string" && typeof l !== "number") throw new RecordProblem(`levels[${i}]`, "must be a string or a number");
    return String(l);
  });
  if (new Set(names).size !== names.length) throw new RecordProblem("levels", "levels must be distinct");
  const a = r.answer;
  const answer = typeof a === "number" && !names.includes(String(a)) ? names[a] : a === undefined ? undefined : String(a);
  if (answer === undefined || !names.includes(answer)) {
    throw new RecordProblem("answer", `${JSON.stringify(a)} is not one of the levels ${names.join(", ")}`);
  }
  return { ...common(r, fallbackId), levels: names, answer };
}

export function claimsOf(r: Json, fallbackId: string): ClaimsItem {
  const response = text(r, "response", true)!;
  const raw = r.claims;
  if (!Array.isArray(raw) || raw.length === 0) throw new RecordProblem("claims", "must be a non-empty list");
  const claims: LabelledClaim[] = raw.map((c: unknown, i) => {
    const o = c as Json;
    if (o === null || typeof o !== "object") throw new RecordProblem(`claims[${i}]`, "must be an object {text, correct}");
    if (typeof o.text !== "string" || o.text.trim() === "") throw new RecordProblem(`claims[${i}].text`, "must be a non-empty string");
    if (typeof o.correct !== "boolean") throw new RecordProblem(`claims[${i}].correct`, "must be true or false");
    return { text: o.text, correct: o.correct };
  });
  return { ...common(r, fallbackId), response, claims };
}

export function passFailOf(r: Json, fallbackId: string): PassFailItem {
  const base = common(r, fallbackId);
  if (base.question === undefined || base.question.trim() === "") throw new RecordProblem("question", "is missing");
  if (r.answer !== "pass" && r.answer !== "fail") throw new RecordProblem("answer", 'must be "pass" or "fail"');
  return { ...base, question: base.question, answer: r.answer };
}

export function yesNoOf(r: Json, fallbackId: string): YesNoItem {
  const base = common(r, fallbackId);
  if (base.question === undefined || base.question.trim() === "") throw new RecordProblem("question", "is missing");
  if (r.answer !== "yes" && r.answer !== "no") throw new RecordProblem("answer", 'must be "yes" or "no"');
  return { ...base, question: base.question, answer: r.answer };
}

export function pairwiseOf(r: Json, fallbackId: string): PairwiseItem {
  const raw = r.candidates;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new RecordProblem("candidates", "must be a map of candidate name to text");
  const candidates: Record<string, string> = {};
  for (const [name, t] of Object.entries(raw)) {
    if (typeof t !== "string" || t.trim() === "") throw new RecordProblem(`candidates.${name}`, "must be a non-empty string");
    candidates[name] = t;
  }
  const names = Object.keys(candidates);
  if (names.length < 2) throw new RecordProblem("candidates", "needs at least 2 candidates");
  if (typeof r.answer !== "string" || !names.includes(r.answer)) {
    throw new RecordProblem("answer", `${JSON.stringify(r.answer)} is not one of the candidates ${names.join(", ")}`);
  }
  return { ...common(r, fallbackId), candidates, answer: r.answer };
}

export function referenceOf(r: Json, fallbackId: string): ReferenceItem {
  const reference = text(r, "reference", true)!;
  const base = common(r, fallbackId);
  if (base.context === "" && (base.question === undefined || base.question.trim() === "")) throw new RecordProblem("context", "a record needs a context or a question");
  return { ...base, reference };
}
