// `--layout NAME` and `--fields MAP` of the commands that read a dataset: which published layout the
// records are in, or which field holds what (`question=prompt,choices=opts,answer=gold`).
import { FIELD_MAPPING_KEYS, LAYOUT_NAMES, type DatasetOptions, type FieldMapping } from "../../datasets/index.js";

export const DATASET_USAGE = `  --layout NAME      the records' published layout: ${LAYOUT_NAMES.join(", ")} (default auto:
                     calibkit's records, MMLU rows, or a layout detected from the first record)
  --fields MAP       field mapping for any other multiple-choice JSON Lines or Parquet file, e.g.
                     question=prompt,choices=opts,answer=gold[,labels=..,context=..,id=..,group=meta.topic]
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
  const mapping: Partial<Record<keyof FieldMapping, string>> = {};
  for (const pair of fields.split(",")) {
    const [key, path, ...rest] = pair.split("=").map((s) => s.trim());
    if (!key || !path || rest.length > 0) fail("fields", `"${pair}" is not KEY=FIELD`);
    if (!(FIELD_MAPPING_KEYS as readonly string[]).includes(key)) {
      fail("fields", `unknown key "${key}"; use ${FIELD_MAPPING_KEYS.join(", ")}`);
    }
    mapping[key as keyof FieldMapping] = path;
  }
  if (!mapping.choices || !mapping.answer) fail("fields", "must name at least choices=FIELD and answer=FIELD");
  if (!mapping.question && !mapping.context) fail("fields", "must name question=FIELD or context=FIELD");
  return { fields: mapping as FieldMapping };
}
