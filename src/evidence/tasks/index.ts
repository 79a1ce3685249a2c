// Public face of the generation tasks: lm-eval's triviaqa, nq_open, gsm8k and truthfulqa_gen and calibkit's
// generic task as values, their prompts with lm-eval's own few-shot draws, chat rendering, hashing, and each
// task's grade of an answer. docs/generation.md.
export type { AssembledGeneration, GenerationPromptItem, GenerationPromptSettings, GenerationTask } from "./types.js";
export { GENERATION_TASKS, TRUTHFULQA_QA_PROMPT } from "./taskList.js";
export { PythonRandom } from "./pythonRandom.js";
export { pickFewshot } from "./fewshot.js";
export { assembleGenerations, maybeDelimit } from "./assemble.js";
export { prepareGenerations, type PreparedGeneration } from "./prepare.js";
export { generationPromptHash } from "./hash.js";
export { gradeAnswer } from "./gradeAnswer.js";
