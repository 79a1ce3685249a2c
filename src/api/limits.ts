// Bounds on one evaluate request, so that the work a request asks for is bounded by more than its byte size
// (docs/service.md, "Limits"): beyond them the request is a 422 naming the field, before any schema is walked.
import type { RuleIssue } from "./evidenceRules.js";

/** Queries in one evaluate request. */
export const MAX_QUERIES_PER_REQUEST = 1000;
/** Options of a set query, candidates of a judge, names in one probability map. */
export const MAX_OPTIONS_PER_QUERY = 1000;
/** Sampled responses in one query's evidence. */
export const MAX_SAMPLES_PER_QUERY = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Counts an object's own keys, stopping past `limit`. */
function keysBeyond(value: unknown, limit: number): number | undefined {
  if (!isObject(value)) return undefined;
  let n = 0;
  for (const _ in value) if (++n > limit) break;
  return n > limit ? Object.keys(value).length : undefined;
}

/** The bounds a raw evaluate request breaks, each naming its field; [] for a request within them. */
export function evaluateBoundIssues(raw: unknown): RuleIssue[] {
  if (!isObject(raw) || !isObject(raw.queries)) return [];
  const issues: RuleIssue[] = [];
  const queries = keysBeyond(raw.queries, MAX_QUERIES_PER_REQUEST);
  if (queries !== undefined) {
    return [{ path: ["queries"], message: `holds ${queries} queries; at most ${MAX_QUERIES_PER_REQUEST} are taken in one request (send several requests)` }];
  }
  const candidates = isObject(raw.context) ? keysBeyond(raw.context.candidates, MAX_OPTIONS_PER_QUERY) : undefined;
  if (candidates !== undefined) issues.push({ path: ["context", "candidates"], message: `holds ${candidates} candidates; at most ${MAX_OPTIONS_PER_QUERY} are taken` });
  for (const name in raw.queries) {
    const q = raw.queries[name];
    if (!isObject(q)) continue;
    const options = keysBeyond(q.options, MAX_OPTIONS_PER_QUERY);
    if (options !== undefined) issues.push({ path: ["queries", name, "options"], message: `holds ${options} options; at most ${MAX_OPTIONS_PER_QUERY} are taken in one query` });
    if (!isObject(q.evidence)) continue;
    for (const map of ["option_probabilities", "level_probabilities"] as const) {
      const n = keysBeyond(q.evidence[map], MAX_OPTIONS_PER_QUERY);
      if (n !== undefined) issues.push({ path: ["queries", name, "evidence", map], message: `holds ${n} probabilities; at most ${MAX_OPTIONS_PER_QUERY} are taken in one query` });
    }
    const samples = q.evidence.samples;
    if (Array.isArray(samples) && samples.length > MAX_SAMPLES_PER_QUERY) {
      issues.push({ path: ["queries", name, "evidence", "samples"], message: `holds ${samples.length} samples; at most ${MAX_SAMPLES_PER_QUERY} are taken in one query` });
    }
  }
  return issues;
}
