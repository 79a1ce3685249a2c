// The prompts the local model answers about its own generations (issue 27, point 5): the entailment judge, a
// scored yes/no question asked in both directions, and lm-polygraph's P(True) prompt (stat_calculators/prompt.py,
// PromptCalculator) with the token it scores. Versioned: their text is part of every cached statistic's key.
import { renderTemplate } from "../templates.js";

export interface ScoredPrompt {
  /** `<name>/v<n>`; bump n whenever the text changes. */
  id: string;
  text: string;
  /** What is scored after the prompt: the first is the answer counted as yes / true. */
  continuations: readonly string[];
}

/** Does answer A entail answer B? p(yes) over {yes, no} is the entailment, p(no) the contradiction. */
export const ENTAILMENT_PROMPT: ScoredPrompt = {
  id: "entailment/v1",
  text: "{question}\n\nAnswer A: {a}\nAnswer B: {b}\nIf answer A is right, is answer B right too? Reply yes or no.\nReply:",
  continuations: [" yes", " no"],
};

/** lm-polygraph's PromptCalculator text, byte for byte; `p_true` is log p("True") after it. */
export const P_TRUE_PROMPT: ScoredPrompt = {
  id: "p_true/lm-polygraph",
  text: "Question: {q}\n Possible answer:{a}\n Is the possible answer:\n (A) True\n (B) False\n The possible answer is:",
  continuations: ["True"],
};

export const STATISTIC_PROMPTS: readonly ScoredPrompt[] = [ENTAILMENT_PROMPT, P_TRUE_PROMPT];

export const entailmentText = (question: string, a: string, b: string): string =>
  renderTemplate(ENTAILMENT_PROMPT.text, { question, a, b });

// lm-polygraph formats with str.format, whose {q} and {a} are not renderTemplate's lower-case keys only.
export const pTrueText = (question: string, answer: string): string =>
  P_TRUE_PROMPT.text.replace("{q}", () => question).replace("{a}", () => answer);
