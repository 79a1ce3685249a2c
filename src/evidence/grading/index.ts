// Grading free-form answers as lm-evaluation-harness grades them: pure functions over strings (no model, no
// I/O), each metric with the definitions of the library lm-eval calls (Hugging Face evaluate's exact_match,
// sacrebleu, rouge_score) and SQuAD's F1 for generic files. docs/generation.md, "Grading".
export { GENERATION_TASK_NAMES, gradeGeneration, type Grade, type GradeOptions, type GradeReferences, type GenerationTaskName } from "./grade.js";
export { exactMatch, type ExactMatchOptions } from "./exactMatch.js";
export { cutAtStops, findall, regexFilter, removeWhitespace, type RegexFilterOptions } from "./filters.js";
export { intlTokenize, sacreBleu } from "./sacreBleu.js";
export { truthfulqaRouge, type TruthfulRouge } from "./rougeScore.js";
export { normalizeAnswer, squadExactMatch, squadF1, squadScores } from "./squad.js";
export { TRUTHFULQA_MEASURES, truthfulqaMetrics, type TruthfulqaMeasure } from "./truthfulqa.js";
export { pyStrip, pySplit } from "./pythonText.js";
