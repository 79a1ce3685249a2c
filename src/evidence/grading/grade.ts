// Each generation task's grade as lm-eval computes it, over one answer already cut at the task's stops:
// triviaqa and nq_open `exact_match` after remove_whitespace/take_first (nq_open also drops articles),
// gsm8k `exact_match` under its strict-match and flexible-extract filters, truthfulqa_gen's BLEU/ROUGE
// accuracies, and, for generic files, SQuAD token F1 against a threshold.
import { exactMatch } from "./exactMatch.js";
import { regexFilter, removeWhitespace } from "./filters.js";
import { PY_WORD } from "./pythonText.js";
import { squadScores } from "./squad.js";
import { truthfulqaMetrics, type TruthfulqaMeasure } from "./truthfulqa.js";

export const GENERATION_TASK_NAMES = ["triviaqa", "nq_open", "gsm8k", "truthfulqa_gen", "generic"] as const;
export type GenerationTaskName = (typeof GENERATION_TASK_NAMES)[number];

export interface GradeReferences {
  /** What counts as right (lm-eval's targets; truthfulqa_gen's correct answers, formatted as lm-eval does). */
  references: readonly string[];
  /** truthfulqa_gen's incorrect answers. */
  incorrect?: readonly string[];
}

export interface GradeOptions {
  /** gsm8k: which of lm-eval's two filters decides `correct`; default strict-match (the first the task lists). */
  gsm8kFilter?: "strict-match" | "flexible-extract";
  /** truthfulqa_gen: whose `_acc` decides `correct`; default bleu (the first the task lists). */
  truthfulqaMeasure?: TruthfulqaMeasure;
  /** generic: the SQuAD F1 at or above which an answer is correct; default 0.5. */
  f1Threshold?: number;
}

export interface Grade {
  correct: boolean;
  /** What decided `correct`, e.g. `exact_match,strict-match` or `f1>=0.5`. */
  grader: string;
  /** Every value the task's metric reports for this answer, under lm-eval's names (`metric,filter`). */
  metrics: Record<string, number>;
}

// YAML regexes_to_ignore in JavaScript: Python's `\b` before a word character is "no word character before",
// its `$` also matches before a final newline, and `(?s).*` is `[\s\S]*`.
const NQ_ARTICLES = new RegExp(`(?<!${PY_WORD})(?:The |the |An |A |The |a |an )`, "gu");
const GSM8K_IGNORE = [/,/g, /\$/g, /[\s\S]*#### /g, /\.(?=\n?$)/g];
const GSM8K_STRICT = /#### (-?[0-9.,]+)/g;
const GSM8K_FLEXIBLE = /(-?[$0-9.,]{2,})|(-?[0-9]+)/g;

function exactMatchGrade(answer: string, refs: readonly string[], regexes: RegExp[]): Grade {
  const filtered = removeWhitespace(answer);
  const value = exactMatch(filtered, refs, { ignoreCase: true, ignorePunctuation: true, regexesToIgnore: regexes });
  return { correct: value === 1, grader: "exact_match,remove_whitespace", metrics: { "exact_match,remove_whitespace": value } };
}

function gsm8kGrade(answer: string, refs: readonly string[], filter: "strict-match" | "flexible-extract"): Grade {
  const options = { ignoreCase: true, ignorePunctuation: false, regexesToIgnore: GSM8K_IGNORE };
  const strict = exactMatch(regexFilter(answer, { pattern: GSM8K_STRICT }), refs, options);
  const flexible = exactMatch(regexFilter(answer, { pattern: GSM8K_FLEXIBLE, groupSelect: -1 }), refs, options);
  const metrics = { "exact_match,strict-match": strict, "exact_match,flexible-extract": flexible };
  return { correct: (filter === "strict-match" ? strict : flexible) === 1, grader: `exact_match,${filter}`, metrics };
}

/** The grade of `answer` (the generation cut at the task's stops) for task `task`. */
export function gradeGeneration(task: GenerationTaskName, answer: string, refs: GradeReferences, options: GradeOptions = {}): Grade {
  if (refs.references.length === 0) throw new RangeError("an item needs at least one reference answer to be graded");
  switch (task) {
    case "triviaqa":
      return exactMatchGrade(answer, refs.references, []);
    case "nq_open":
      return exactMatchGrade(answer, refs.references, [NQ_ARTICLES]);
    case "gsm8k":
      return gsm8kGrade(answer, refs.references, options.gsm8kFilter ?? "strict-match");
    case "truthfulqa_gen": {
      // lm-eval's take_first filter keeps the whole completion (no whitespace removed).
      const measure = options.truthfulqaMeasure ?? "bleu";
      const metrics = truthfulqaMetrics(answer, refs.references, refs.incorrect ?? []);
      return { correct: metrics[`${measure}_acc`] === 1, grader: `${measure}_acc`, metrics };
    }
    case "generic": {
      const threshold = options.f1Threshold ?? 0.5;
      if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`the F1 threshold must lie in [0, 1], not ${threshold}`);
      const { f1, exactMatch: em } = squadScores(answer, refs.references);
      return { correct: f1 >= threshold, grader: `f1>=${threshold}`, metrics: { f1, exact_match: em } };
    }
  }
}
