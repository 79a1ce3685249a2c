// The input line of `calibkit scores` (docs/uncertainty.md): one item's statistics under lm-polygraph's names, and
// optionally whether its answer was correct. JSON has no −∞, so a log-probability may also be the string
// "-Infinity" (or "Infinity", "NaN"), as calibkit prints them.
import { z } from "zod";

const SPECIAL = { "-Infinity": -Infinity, Infinity: Infinity, NaN: NaN } as const;

/** A number, or one of the strings "-Infinity", "Infinity", "NaN". */
export const wireNumberSchema = z.union([z.number(), z.enum(["-Infinity", "Infinity", "NaN"])], {
  error: 'must be a number or one of the strings "-Infinity", "Infinity", "NaN"',
})
  .transform((v) => (typeof v === "number" ? v : SPECIAL[v]));

const numbers = z.array(wireNumberSchema);
const finite = z.array(z.number());
const probability = z.number().min(0).max(1);
const index = z.number().int().min(0);

/** One line of a `calibkit scores` file. Unknown fields are refused, so a misspelt statistic is named, not ignored. */
export const scoresInputLineSchema = z.object({
  id: z.union([z.string(), z.number()]),
  greedy_texts: z.string().optional(),
  greedy_log_likelihoods: numbers.optional(),
  entropy: numbers.optional(),
  greedy_log_probs: z.array(numbers).optional(),
  sample_texts: z.array(z.string()).optional(),
  sample_log_probs: numbers.optional(),
  sample_log_likelihoods: z.array(numbers).optional(),
  sample_tokens: z.array(finite).optional(),
  semantic_matrix_entail: z.array(z.array(probability)).optional(),
  semantic_matrix_contra: z.array(z.array(probability)).optional(),
  semantic_classes_entail: z.object({
    sample_to_class: z.array(index),
    class_to_sample: z.array(z.array(index).min(1)),
  }).strict().optional(),
  greedy_sentence_similarity: finite.optional(),
  p_true: wireNumberSchema.optional(),
  sample_embeddings: z.array(finite.min(1)).optional(),
  /** Whether the answer was right: a boolean, or a graded quality in [0, 1] (higher = better). */
  correct: z.union([z.boolean(), probability]).optional(),
}).strict().superRefine((line, ctx) => {
  // Every per-sample statistic has one entry per sample; a K×K matrix has K rows of K.
  const perSample = ["sample_texts", "sample_log_probs", "sample_log_likelihoods", "sample_tokens", "sample_embeddings", "semantic_classes_entail"] as const;
  let k: number | undefined;
  let from = "";
  for (const field of perSample) {
    const v = line[field];
    if (v === undefined) continue;
    const n = field === "semantic_classes_entail" ? line.semantic_classes_entail!.sample_to_class.length : (v as unknown[]).length;
    if (k === undefined) { k = n; from = field; }
    else if (n !== k) ctx.addIssue({ code: "custom", path: [field], message: `has ${n} samples where \`${from}\` has ${k}` });
  }
  for (const field of ["semantic_matrix_entail", "semantic_matrix_contra"] as const) {
    const m = line[field];
    if (m === undefined) continue;
    if (k !== undefined && m.length !== k) ctx.addIssue({ code: "custom", path: [field], message: `has ${m.length} rows where \`${from}\` has ${k} samples` });
    m.forEach((row, i) => {
      if (row.length !== m.length) ctx.addIssue({ code: "custom", path: [field, i], message: `has ${row.length} entries; the matrix is ${m.length}×${m.length}` });
    });
  }
  const e = line.semantic_matrix_entail, c = line.semantic_matrix_contra;
  if (e && c && e.length !== c.length) ctx.addIssue({ code: "custom", path: ["semantic_matrix_contra"], message: `is ${c.length}×${c.length} where \`semantic_matrix_entail\` is ${e.length}×${e.length}` });
  const dims = new Set(line.sample_embeddings?.map((row) => row.length));
  if (dims.size > 1) ctx.addIssue({ code: "custom", path: ["sample_embeddings"], message: "rows must all have the same length" });
});

export type ScoresInputLine = z.output<typeof scoresInputLineSchema>;
