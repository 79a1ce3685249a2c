// A multiple-choice task of an lm-eval samples file as calibkit's items and evidence: one request per choice
// (arg_0 the context, arg_1 the target delimiter and the choice), each filtered response [log-likelihood,
// is_greedy]. Option probabilities are the softmax of the log-likelihoods, or with `chars` of each divided by
// its choice's length in characters, delimiter removed — lm-eval's acc_norm (api/task.py process_results).
import type { Evidence } from "../../api/index.js";
import type { ChoiceItem } from "../choices.js";
import { RunInputError } from "../errors.js";
import { requestArgs, requestCount, type LmEvalRun, type LmEvalSample } from "./samplesFile.js";

/** lm-eval's default target_delimiter, put before every choice in arg_1. */
const TARGET_DELIMITER = " ";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export type LmEvalOutput = "multiple_choice" | "generate_until";

/** What kind of task wrote the file: generation requests carry their settings object as arg_1. */
export function outputTypeOf(run: LmEvalRun): LmEvalOutput {
  const first = run.samples[0]!;
  const arg1 = requestArgs(first, 0)[1];
  if (requestCount(first) === 1 && arg1 !== null && typeof arg1 === "object") return "generate_until";
  if (typeof arg1 === "string") return "multiple_choice";
  throw new RunInputError(run.file, "line 1, field \"arguments\": neither a multiple-choice task (one [context, continuation] request per choice) nor a generate_until task");
}

/** lm-eval's str(float) of a log-likelihood back to a number. */
function logLikelihood(run: LmEvalRun, line: number, s: LmEvalSample, i: number): number {
  const entry = s.filtered_resps[i];
  const raw = Array.isArray(entry) ? entry[0] : entry;
  const x = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isFinite(x)) throw new RunInputError(run.file, `line ${line}, field "filtered_resps.${i}": expected [log-likelihood, is_greedy], got ${JSON.stringify(entry)}`);
  return x;
}

function goldIndex(target: string, choices: readonly string[], continuations: readonly string[]): number {
  if (/^\d+$/.test(target) && Number(target) < choices.length) return Number(target);
  const byText = choices.indexOf(target);
  return byText >= 0 ? byText : continuations.indexOf(target);
}

/** Probabilities over the choices: softmax of the log-likelihoods, each ÷ its length in characters with `chars`. */
export function choiceProbabilities(lls: readonly number[], choices: readonly string[], normalize: "none" | "chars"): number[] {
  const scores = lls.map((ll, j) => (normalize === "chars" ? ll / [...choices[j]!].length : ll));
  const top = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - top));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}

export interface LmEvalChoiceItems {
  items: ChoiceItem[];
  /** Evidence of each item, by item id. */
  evidence: Map<string, Evidence>;
  /** The filter whose lines were read (a file holds one line per document and filter). */
  filter: string;
}

export function lmEvalChoiceItems(run: LmEvalRun, normalize: "none" | "chars" | "tokens"): LmEvalChoiceItems {
  if (normalize === "tokens") throw new RunInputError(run.file, "--normalize tokens needs token counts, which lm-eval's samples do not keep; use none or chars (acc_norm)");
  const filter = run.samples[0]!.filter;
  const items: ChoiceItem[] = [];
  const evidence = new Map<string, Evidence>();
  run.samples.forEach((s, i) => {
    if (s.filter !== filter) return;
    const line = i + 1;
    const K = requestCount(s);
    if (K < 2) throw new RunInputError(run.file, `line ${line}, field "arguments": a multiple-choice document needs 2 or more choices, got ${K}`);
    const args = Array.from({ length: K }, (_, j) => requestArgs(s, j));
    const continuations = args.map((a, j) => {
      if (typeof a[0] !== "string" || typeof a[1] !== "string") throw new RunInputError(run.file, `line ${line}, field "arguments.gen_args_${j}": expected [context, continuation] strings`);
      return a[1];
    });
    const choices = continuations.map((c) => (c.startsWith(TARGET_DELIMITER) ? c.slice(TARGET_DELIMITER.length) : c));
    const gold = goldIndex(s.target, choices, continuations);
    if (gold < 0) throw new RunInputError(run.file, `line ${line}, field "target": ${JSON.stringify(s.target)} is neither a choice index nor a choice`);
    const names = K <= LETTERS.length ? [...LETTERS.slice(0, K)] : choices.map((_, j) => String(j + 1));
    const lls = Array.from({ length: K }, (_, j) => logLikelihood(run, line, s, j));
    const p = choiceProbabilities(lls, choices, normalize);
    const id = String(s.doc_id);
    items.push({ id, context: args[0]![0] as string, names, texts: choices, answer: names[gold]! });
    evidence.set(id, { option_probabilities: Object.fromEntries(names.map((n, j) => [n, p[j]!])) });
  });
  return { items, evidence, filter };
}
