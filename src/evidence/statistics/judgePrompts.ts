// The prompts a model answers about generations (issue 27, points 4 to 6): the entailment judge, a scored yes/no
// question asked in both directions; lm-polygraph's P(True) prompts (stat_calculators/prompt.py: PromptCalculator
// for the answer, ClaimPromptCalculator for a claim) with the token they score; and the answer judge that grades an
// answer against a reference. Versioned: their text is part of every cached statistic's and grade's key.
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

/** lm-polygraph's ClaimPromptCalculator text, byte for byte (its PTrueClaim); a claim's score is p("True") after it. */
export const P_TRUE_CLAIM_PROMPT: ScoredPrompt = {
  id: "p_true_claim/lm-polygraph",
  text: "Question: {q}\n Possible answer:{a}\n Is the possible answer True or False? The possible answer is: ",
  continuations: ["True"],
};

/**
 * The judge grader: does the answer mean the same as a reference? The answer is right when, for some reference,
 * p(yes) > p(no) (p(yes) over {yes, no} above ½; a tie is not right).
 */
export const ANSWER_JUDGE_PROMPT: ScoredPrompt = {
  id: "answer-match/v1",
  text: "{question}\n\nReference answer: {reference}\nProposed answer: {answer}\nDoes the proposed answer mean the same as the reference answer? Reply yes or no.\nReply:",
  continuations: [" yes", " no"],
};

export const STATISTIC_PROMPTS: readonly ScoredPrompt[] = [ENTAILMENT_PROMPT, P_TRUE_PROMPT, P_TRUE_CLAIM_PROMPT, ANSWER_JUDGE_PROMPT];

export const entailmentText = (question: string, a: string, b: string): string =>
  renderTemplate(ENTAILMENT_PROMPT.text, { question, a, b });

// lm-polygraph formats with str.format, whose {q} and {a} are not renderTemplate's lower-case keys only.
export const pTrueText = (question: string, answer: string): string =>
  P_TRUE_PROMPT.text.replace("{q}", () => question).replace("{a}", () => answer);

export const pTrueClaimText = (question: string, claim: string): string =>
  P_TRUE_CLAIM_PROMPT.text.replace("{q}", () => question).replace("{a}", () => claim);

export const answerJudgeText = (question: string, reference: string, answer: string): string =>
  renderTemplate(ANSWER_JUDGE_PROMPT.text, { question, reference, answer });
