// `--layout NAME` and `--fields MAP` of the commands that read a dataset: which published layout the
// records are in, or which field holds what (`question=prompt,choices=opts,answer=gold`).
import { FIELD_MAPPING_KEYS, GENERATION_FIELD_KEYS, LAYOUT_NAMES, type DatasetOptions, type FieldMapping, type GenerationFieldMapping } from "../../datasets/index.js";

export const DATASET_USAGE = `  --layout NAME      the records' published layout (default auto: calibkit's records, MMLU rows,
                     or a layout detected from the first record): ${LAYOUT_NAMES.slice(0, 4).join(", ")},
                     ${LAYOUT_NAMES.slice(4).join(", ")}
  --fields MAP       field mapping for any other multiple-choice JSON Lines or Parquet file, e.g.
                     question=prompt,choices=opts,answer=gold[,labels=..,context=..,id=..,group=meta.topic];
                     for a generation file question=q,references=golds[,context=passage,id=..,group=..]
`;

/** `fail(option, problem)` throws the caller's option error. */
export function parseDatasetOptions(
  layout: string | undefined, fields: string | undefined, fail: (option: "layout" | "fields", problem: string) => never,
): DatasetOptions {
  if (layout !== undefined && !(LAYOUT_NAMES as readonly string[]).includes(layout)) {
    fail("layout", `must be one of ${LAYOUT_NAMES.join(", ")}, got "${layout}"`);
  }
  if (fields === undefined) return layout === undefined ? {} : { layout };
  if (layout !== undefined && layout !== "auto") fail("fields", "give --layout or --fields, not both");
  const mapping: Partial<Record<keyof FieldMapping | keyof GenerationFieldMapping, string>> = {};
  const keys = [...new Set<string>([...FIELD_MAPPING_KEYS, ...GENERATION_FIELD_KEYS])];
  for (const pair of fields.split(",")) {
    const [key, path, ...rest] = pair.split("=").map((s) => s.trim());
    if (!key || !path || rest.length > 0) fail("fields", `"${pair}" is not KEY=FIELD`);
    if (!keys.includes(key)) fail("fields", `unknown key "${key}"; use ${keys.join(", ")}`);
    mapping[key as keyof typeof mapping] = path;
  }
  if (mapping.references) {
    const stray = Object.keys(mapping).filter((k) => !(GENERATION_FIELD_KEYS as readonly string[]).includes(k));
    if (stray.length > 0) fail("fields", `a generation mapping (references=…) takes ${GENERATION_FIELD_KEYS.join(", ")}, not ${stray.join(", ")}`);
    if (!mapping.question && !mapping.context) fail("fields", "must name question=FIELD or context=FIELD");
    return { fields: mapping as GenerationFieldMapping };
  }
  if (!mapping.choices || !mapping.answer) fail("fields", "must name at least choices=FIELD and answer=FIELD (or references=FIELD for a generation file)");
  if (!mapping.question && !mapping.context) fail("fields", "must name question=FIELD or context=FIELD");
  return { fields: mapping as FieldMapping };
}
