// A large evaluate request (hundreds of queries of hundreds of options) is validated and answered a slice of
// queries at a time, each slice a few milliseconds, with the event loop free in between: in one piece, 250
// queries of 1,000 options held it for over a second, and every other client with it.
import { checkEvaluateBounds, MAX_QUERIES_PER_REQUEST, ValidationError, parseEvaluateRequest, type FieldIssue, type EvaluateRequest } from "../../api/index.js";
import type { ServiceResponse } from "../http/router.js";
import { answerRequest, insufficientMessage, respond, type EvaluateDeps } from "./answer.js";

/** Requests from this size on go slice by slice. */
export const SLICED_BODY_BYTES = 64 * 1024;
/** Option (or level, or sample) entries per slice: a few milliseconds of validation and answering. */
const ENTRIES_PER_SLICE = 2000;
/** Queries per slice: a query the schema refuses costs about a millisecond to describe, whatever its size. */
const QUERIES_PER_SLICE = 16;

const nextTurn = () => new Promise<void>((ok) => setImmediate(ok));

const sizeOf = (value: unknown): number => {
  if (typeof value !== "object" || value === null) return 0;
  return Array.isArray(value) ? value.length : Object.keys(value).length;
};

/** A query's weight in entries: its options and the names and samples of its evidence. */
function entriesOf(query: unknown): number {
  if (typeof query !== "object" || query === null) return 1;
  const q = query as { options?: unknown; evidence?: Record<string, unknown> };
  const e = q.evidence;
  return 1 + sizeOf(q.options) + (typeof e === "object" && e !== null ? sizeOf(e.option_probabilities) + sizeOf(e.level_probabilities) + sizeOf(e.samples) : 0);
}

export async function evaluateInSlices(body: unknown, deps: EvaluateDeps, requestId: string): Promise<ServiceResponse> {
  const queries = (body as { queries?: unknown } | null)?.queries;
  if (typeof body !== "object" || body === null || typeof queries !== "object" || queries === null || Array.isArray(queries) || sizeOf(queries) === 0) {
    // Nothing to slice: the ordinary path says what is wrong.
    const answered = await answerRequest(parseEvaluateRequest(body), deps, requestId);
    return respond(answered);
  }
  // The bounds of the whole request (the number of queries first); each slice's parse checks its queries' own.
  checkEvaluateBounds({ ...body, queries: {} });
  const names = Object.keys(queries);
  if (names.length > MAX_QUERIES_PER_REQUEST) checkEvaluateBounds(body);
  // Every slice validated first, so that a refusal names every offending field of the whole request. Slices are
  // cut as the queries are weighed, a turn each: weighing them all at once would itself be a long turn.
  const requests: EvaluateRequest[] = [];
  const issues: FieldIssue[] = [];
  const all = queries as Record<string, unknown>;
  let part: Record<string, unknown> = {};
  let entries = 0;
  let count = 0;
  for (let i = 0; i < names.length; i++) {
    part[names[i]!] = all[names[i]!];
    entries += entriesOf(all[names[i]!]);
    if (entries < ENTRIES_PER_SLICE && ++count < QUERIES_PER_SLICE && i < names.length - 1) continue;
    await nextTurn();
    try {
      requests.push(parseEvaluateRequest({ ...body, queries: part }));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      for (const issue of err.issues) if (!issues.some((i) => i.field === issue.field && i.message === issue.message)) issues.push(issue);
    }
    part = {};
    entries = 0;
    count = 0;
  }
  if (issues.length > 0) throw new ValidationError("evaluate request", issues);
  // A request's fdr gates are one Benjamini–Hochberg batch (answer.ts decides them together), so they are
  // answered in one slice of their own, whichever slices they were validated in.
  const fdrGates: EvaluateRequest["queries"] = {};
  for (const request of requests) {
    for (const [name, query] of Object.entries(request.queries)) {
      if (query.type === "gate" && query.guarantee === "fdr") {
        fdrGates[name] = query;
        delete request.queries[name];
      }
    }
  }
  if (Object.keys(fdrGates).length > 0) requests.push({ ...requests[0]!, queries: fdrGates });
  // The response is written as it is answered, a slice's answers a piece of it (ServiceResponse.chunks): the same
  // text respond() would give, never one string of the whole (a large body's was most of a second to build).
  const chunks: Buffer[] = [Buffer.from('{"answers":{')];
  const usage = { backend_calls: 0, backend_tokens: 0 };
  const warnings: string[] = [];
  const short: string[] = [];
  let first = true;
  for (const request of requests) {
    if (Object.keys(request.queries).length === 0) continue;
    await nextTurn();
    const part = await answerRequest(request, deps, requestId);
    let text = "";
    for (let i = 0; i < part.names.length; i++) {
      const outcome = part.outcomes[i]!;
      if (outcome.insufficient) short.push(part.names[i]!);
      text += `${first ? "" : ","}${JSON.stringify(part.names[i])}:${outcome.json ?? JSON.stringify(outcome.answer)}`;
      first = false;
    }
    chunks.push(Buffer.from(text));
    usage.backend_calls += part.usage.backend_calls;
    usage.backend_tokens += part.usage.backend_tokens;
    // A warning about a profile is written once per slice that names it: kept once.
    for (const warning of part.warnings) if (!warnings.includes(warning)) warnings.push(warning);
  }
  const backend = requests[0]!.backend;
  const rest: Record<string, unknown> = backend ? { backend, usage, warnings } : { usage, warnings };
  if (short.length > 0) Object.assign(rest, { error: "insufficient_calibration", message: insufficientMessage(short) });
  // `rest` as JSON, its braces taken off, after the answers' closing brace; the closing brace is the server's.
  chunks.push(Buffer.from(`},${JSON.stringify(rest).slice(1, -1)}`));
  return { status: short.length > 0 ? 424 : 200, body: undefined, chunks };
}
