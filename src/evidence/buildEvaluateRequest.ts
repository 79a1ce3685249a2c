// From a context, named queries and a local model to a client_evidence evaluate request (spec 2.3),
// validated by the api schemas before it is returned: nothing invalid leaves the builder.
import {
  parseEvaluateRequest, querySchema, type AccessHint, type AccessLevel, type EvaluateRequest, type Query,
} from "../api/index.js";
import { resolveAccessLevel, type ModelAdapter } from "../adapters/index.js";
import { computeEvidence, type EvidenceOptions } from "./computeEvidence.js";
import { EvidenceError } from "./errors.js";

export interface BuildEvaluateRequestOptions extends EvidenceOptions {
  context: unknown;
  /** Named queries; any `evidence` they carry is replaced. Route queries pass through untouched. */
  queries: Record<string, unknown>;
  adapter: ModelAdapter;
  /** Default auto: the adapter's detected level. A hint above it throws AccessLevelError. */
  accessHint?: AccessHint;
  /** The backend name the service sees; default `<provider>:<model>`. */
  name?: string;
}

/** Parses raw queries one by one so an error names the query. */
export function parseQueries(raw: Record<string, unknown>): Record<string, Query> {
  const out: Record<string, Query> = {};
  for (const [name, q] of Object.entries(raw)) {
    const parsed = querySchema.safeParse(q);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = ["queries", name, ...(issue?.path ?? []).map(String)].join(".");
      throw new EvidenceError(`\`${field}\`: ${issue?.message ?? "invalid query"}`, field);
    }
    const { evidence: _dropped, ...rest } = parsed.data as Query & { evidence?: unknown };
    out[name] = rest as Query;
  }
  return out;
}

export async function buildEvaluateRequest(options: BuildEvaluateRequestOptions): Promise<EvaluateRequest> {
  const { context, adapter, accessHint = "auto" } = options;
  const level: AccessLevel = resolveAccessLevel(adapter.accessLevel, accessHint);
  const queries = parseQueries(options.queries);
  const evidence = await computeEvidence(context, queries, adapter, level, options);
  const withEvidence: Record<string, unknown> = {};
  for (const [name, q] of Object.entries(queries)) withEvidence[name] = q.type === "route" ? q : { ...q, evidence: evidence[name] };
  return parseEvaluateRequest({
    context,
    backend: { provider: "client_evidence", name: options.name ?? `${adapter.provider}:${adapter.model}`, access_level: level },
    queries: withEvidence,
  });
}
