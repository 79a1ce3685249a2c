// Datasets: the record types, the importers (JSON Lines, Parquet, MMLU-style CSV; published layouts
// such as ARC, HellaSwag, TriviaQA and GSM8K, or a field mapping), the seeded generators of
// the bundled fixtures, and the seeded split a run uses.
export * from "./types.js";
export { DatasetError, type DatasetErrorLocation } from "./errors.js";
export { parseCsv, type CsvRecord } from "./importers/csv.js";
export { importMmluCsv } from "./importers/mmluCsv.js";
export { importJsonLines, toJsonLines } from "./importers/jsonLines.js";
export { importParquet } from "./importers/parquet.js";
export { importObjects, type DatasetOptions } from "./importers/objectRecords.js";
export { FIELD_MAPPING_KEYS, hellaswagClean, LAYOUT_NAMES, LAYOUTS, type FieldMapping, type Layout } from "./importers/layouts/index.js";
export { GENERATION_FIELD_KEYS, GENERATION_LAYOUTS, type GenerationFieldMapping, type GenerationLayout } from "./importers/layouts/index.js";
export { loadDataset, parseDataset, DATASET_EXTENSIONS } from "./load.js";
export { splitDataset, totalOf, type Split, type SplitSizes } from "./split.js";
export { generateStoryCloze, OPTION_NAMES } from "./generators/storyCloze.js";
export { arcMixedRecords, ARC_MIXED_COUNTS, type ArcRecord } from "./generators/arcMixed.js";
export { STORY_TEMPLATES, type StoryTemplate } from "./generators/storyTemplates.js";
export { generateOrdinal, SIZE_LEVELS } from "./generators/ordinal.js";
export { generateClaims } from "./generators/claims.js";
export { generatePassFail } from "./generators/passFail.js";
export { generatePairwise, generateReference, generateYesNo } from "./generators/beliefJudgeRoute.js";
export { ANSWER_TEMPLATES, generateStoryAnswers } from "./generators/storyAnswers.js";
