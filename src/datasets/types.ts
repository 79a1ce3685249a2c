// The record types of calibkit's datasets: what one labelled item looks like before any model sees it.
// Each file of fixtures/ holds one kind; the kind decides which query type the item calibrates.

/** A multiple-choice item (set queries): the gold answer is one of the option names. */
export interface MultipleChoiceItem {
  id: string;
  /** Text the question is asked about; may be empty (an MMLU question carries everything itself). */
  context: string;
  /** The question or the sentence to complete; absent when the context ends where the answer goes. */
  question?: string;
  /** Option name → option text, in display order (e.g. A..D). */
  options: Record<string, string>;
  /** The gold option name. */
  answer: string;
  /** Mondrian group (e.g. the MMLU subject or the story template); optional. */
  group?: string;
  /** MMLU subject (underscores kept); prompt formats name it in their description line. */
  subject?: string;
}

/** An ordinal item (interval queries): the gold answer is one of the ordered levels. */
export interface OrdinalItem {
  id: string;
  context: string;
  question?: string;
  /** The levels from lowest to highest (2 to 10). */
  levels: string[];
  answer: string;
  group?: string;
}

/** One claim of a response and whether it is true of the context. */
export interface LabelledClaim {
  text: string;
  correct: boolean;
}

/** A claims item (claim queries): a response split into claims, each labelled correct or not. */
export interface ClaimsItem {
  id: string;
  context: string;
  question?: string;
  /** The sampled response the claims were taken from. */
  response: string;
  claims: LabelledClaim[];
  group?: string;
}

/** A pass/fail item (gates): does the statement in `question` hold for the context? */
export interface PassFailItem {
  id: string;
  context: string;
  question: string;
  answer: "pass" | "fail";
  group?: string;
}

/** A yes/no item (belief queries): is the statement in `question` true of the context? */
export interface YesNoItem {
  id: string;
  context: string;
  question: string;
  answer: "yes" | "no";
  group?: string;
}

/** A pairwise item (judge queries): which of two (or more) named candidates is better; `answer` names it. */
export interface PairwiseItem {
  id: string;
  context: string;
  question?: string;
  /** Candidate name → candidate text. */
  candidates: Record<string, string>;
  answer: string;
  group?: string;
}

/** A reference item (route queries): a prompt and the output a correct answer starts with. */
export interface ReferenceItem {
  id: string;
  context: string;
  question?: string;
  reference: string;
  group?: string;
}

/**
 * A generation item (free-form answers): a question, an optional passage it is about, and the answers that
 * count as right, as the item's published layout gives them (docs/generation.md lists each layout).
 */
export interface GenerationItem {
  id: string;
  question: string;
  /** A passage the question is about (the retrieval case); "" when none. */
  context: string;
  /**
   * The reference answers: TriviaQA's `answer.aliases`, NQ open's `answer` list, GSM8K's worked `answer`
   * (ending in "#### N"), TruthfulQA's `correct_answers`, or a generic file's references.
   */
  references: string[];
  /** TruthfulQA's `incorrect_answers` (its BLEU/ROUGE accuracy weighs an answer against them). */
  incorrect?: string[];
  group?: string;
}

export type DatasetKind = "multiple_choice" | "ordinal" | "claims" | "pass_fail" | "yes_no" | "pairwise" | "reference" | "generation";

export interface DatasetItemOf {
  multiple_choice: MultipleChoiceItem;
  ordinal: OrdinalItem;
  claims: ClaimsItem;
  pass_fail: PassFailItem;
  yes_no: YesNoItem;
  pairwise: PairwiseItem;
  reference: ReferenceItem;
  generation: GenerationItem;
}

/**
 * A loaded dataset: one kind, its items in file order, and where they came from; `layout` names the
 * published layout the records were read in, when one was (detected or asked for).
 */
export type Dataset = {
  [K in DatasetKind]: { kind: K; items: DatasetItemOf[K][]; source: string; layout?: string };
}[DatasetKind];

export type MultipleChoiceDataset = Extract<Dataset, { kind: "multiple_choice" }>;
export type GenerationDataset = Extract<Dataset, { kind: "generation" }>;
