// A generate_until task of an lm-eval samples file as gate or belief items: the answer is the file's filtered
// response, graded by the file's own per-document metric (the first of `metrics`, e.g. exact_match: right when
// ≥ 0.5). lm-eval keeps text only, so the confidence that the answer is right is the agreement of the task's
// repeats with it: the share of the raw responses (resps, `repeats` of them) that contain the filtered answer,
// sent at L0 as samples naming pass or fail (gate) or yes or no (belief), so the service takes their frequency
// and says so in the guarantee. With one response per document every item gets the same confidence and
// neither query can tell items apart.
import type { ExampleRecord } from "../../api/index.js";
import { RunInputError } from "../errors.js";
import type { Prepared } from "../queryTypes/types.js";
import { requestArgs, type LmEvalRun } from "./samplesFile.js";

/** The query types a generate_until file can run as, with the option names of the answer being right or not. */
export const LM_EVAL_ANSWER_TYPES = { gate: ["pass", "fail"], belief: ["yes", "no"] } as const;
export type LmEvalAnswerType = keyof typeof LM_EVAL_ANSWER_TYPES;

export interface LmEvalAnswerItems {
  prepared: Prepared[];
  metric: string;
  filter: string;
  /** Responses per document (lm-eval's repeats). */
  repeats: number;
  /** Per prepared item, by id: prompt, generated answer, its grade and the raw responses (items.jsonl). */
  log: Map<string, { prompt: string; answer: string; grade: number; responses: string[]; agree: number }>;
}

const text = (x: unknown): string => (typeof x === "string" ? x : JSON.stringify(x));

export function lmEvalAnswerItems(run: LmEvalRun, type: LmEvalAnswerType, query: { guarantee: string; target: number; delta: number | undefined }): LmEvalAnswerItems {
  const [right, wrong] = LM_EVAL_ANSWER_TYPES[type];
  const filter = run.samples[0]!.filter;
  const metric = run.samples[0]!.metrics[0];
  if (metric === undefined) throw new RunInputError(run.file, "line 1, field \"metrics\": names no metric to grade the answers by");
  const prepared: Prepared[] = [];
  const log: LmEvalAnswerItems["log"] = new Map();
  let repeats = 0;
  run.samples.forEach((s, i) => {
    if (s.filter !== filter) return;
    const line = i + 1;
    const grade = Number((s as Record<string, unknown>)[metric]);
    if (!Number.isFinite(grade)) throw new RunInputError(run.file, `line ${line}, field "${metric}": the document's ${metric} is not a number`);
    const responses = (Array.isArray(s.resps[0]) ? (s.resps[0] as unknown[]) : s.resps).map(text);
    const answer = text(s.filtered_resps[0]).trim();
    if (responses.length === 0) throw new RunInputError(run.file, `line ${line}, field "resps": no response`);
    repeats = Math.max(repeats, responses.length);
    // Each response a sample naming pass / yes (it holds the answer) or fail / no: the service's p at L0 is their frequency.
    const samples = responses.map((r) => (answer !== "" && r.includes(answer) ? right : wrong));
    const agree = samples.filter((x) => x === right).length / samples.length;
    const evidence = { samples };
    const label = grade >= 0.5 ? right : wrong;
    const prompt = text(requestArgs(s, 0)[0]);
    const id = String(s.doc_id);
    const record: ExampleRecord = { context: `${prompt}${answer}`, label, metadata: { id, evidence, access_level: "L0" } };
    const instructions = `Is the answer "${answer}" correct?`;
    prepared.push({
      id, record, context: prompt, truth: label,
      query: type === "belief" ? { type, instructions, evidence }
        : { type, instructions, evidence, guarantee: query.guarantee, target: query.target, ...(query.guarantee === "risk_high_probability" ? { delta: query.delta ?? 0.1 } : {}) },
    });
    log.set(id, { prompt, answer, grade, responses, agree });
  });
  return { prepared, metric, filter, repeats, log };
}
