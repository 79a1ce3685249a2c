// Spec 2.3's evidence table, per access level, and evaluate rules 1, 3 and 4 — the checks that need more
// than one field at a time.
import type { AccessLevel } from "./common.js";
import { levelRank } from "./common.js";
import { PROBABILITY_SUM_TOLERANCE, type Evidence } from "./evidence.js";
import type { Query } from "./query.js";

export interface RuleIssue {
  path: (string | number)[];
  message: string;
}

/** The names a query's option_probabilities must be keyed by, or undefined where any names are allowed. */
export function expectedOptionNames(query: Query, context: unknown): string[] | undefined {
  switch (query.type) {
    case "set":
      return Object.keys(query.options);
    case "belief":
      return ["yes", "no"];
    case "gate":
      return ["pass", "fail"];
    case "judge":
      return judgeCandidates(context);
    default:
      return undefined;
  }
}

/** Candidate names of a judge context `{candidates: {name: text}}`, when the context has that shape. */
export function judgeCandidates(context: unknown): string[] | undefined {
  if (typeof context !== "object" || context === null || Array.isArray(context)) return undefined;
  const candidates = (context as Record<string, unknown>).candidates;
  if (typeof candidates !== "object" || candidates === null || Array.isArray(candidates)) return undefined;
  return Object.keys(candidates);
}

/** Which evidence keys a query type needs at a level: the spec's table, spelled once. */
export function requiredEvidenceKeys(type: Query["type"], level: AccessLevel): (keyof Evidence)[] {
  if (type === "route") return [];
  const rank = levelRank(level);
  if (type === "claim") return rank >= 2 ? ["samples", "claim_scoring"] : ["samples"];
  if (rank === 0) return ["samples"];
  return type === "interval" ? ["level_probabilities"] : ["option_probabilities"];
}

/** Keys a query may carry at a level beyond the required ones. */
function optionalEvidenceKeys(type: Query["type"], level: AccessLevel): (keyof Evidence)[] {
  return levelRank(level) >= 4 && type !== "route" ? ["hidden_states"] : [];
}

const EVIDENCE_KEYS: (keyof Evidence)[] = [
  "option_probabilities", "level_probabilities", "samples", "hidden_states", "claim_scoring", "stage_outputs",
];

/**
 * A route query's `client_evidence` stages: the caller computed their outputs, so the query's evidence carries
 * each one's output and confidence in `stage_outputs` under the stage's name, and nothing else (docs/api.md).
 */
export function routeEvidenceIssues(query: Query, path: (string | number)[]): RuleIssue[] {
  if (query.type !== "route") return [];
  const issues: RuleIssue[] = [];
  const named = new Set<string>();
  query.cascade.forEach((stage, s) => {
    if (stage.backend === "human_queue" || stage.backend.provider !== "client_evidence") return;
    const name = stage.backend.name;
    if (named.has(name)) issues.push({ path: [...path, "cascade", s, "backend", "name"], message: `names client_evidence stage "${name}" twice` });
    named.add(name);
    if (query.evidence?.stage_outputs?.[name] === undefined) {
      issues.push({ path: [...path, "evidence", "stage_outputs", name], message: `is required: cascade stage ${s} is client_evidence "${name}", whose output and confidence the caller sends` });
    }
  });
  for (const key of EVIDENCE_KEYS) {
    if (key !== "stage_outputs" && query.evidence?.[key] !== undefined) {
      issues.push({ path: [...path, "evidence", key], message: "is not sent for a route query (its evidence is stage_outputs of its client_evidence stages)" });
    }
  }
  for (const name of Object.keys(query.evidence?.stage_outputs ?? {})) {
    if (!named.has(name)) issues.push({ path: [...path, "evidence", "stage_outputs", name], message: `names no client_evidence stage of the cascade` });
  }
  return issues;
}

/** Names in a message: the first few, and how many more (a message never grows with the request). */
function listed(names: string[], quoted = true): string {
  const shown = names.slice(0, 10).map((k) => (quoted ? JSON.stringify(k) : k)).join(", ");
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown;
}

function sameNames(keys: readonly string[], expected: readonly string[]): boolean {
  if (keys.length !== expected.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== expected[i]) return false;
  return true;
}

// Every evaluate request runs these rules (evaluate.ts's refinement), so the path that finds nothing wrong
// makes no closures and builds a path array only for an issue it reports.
function checkProbabilities(
  map: Record<string, number>, expected: string[] | undefined, queryPath: (string | number)[], key: keyof Evidence, what: string,
): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const keys = Object.keys(map);
  // The names in the expected order (what a client usually sends) hold them all and nothing else.
  if (expected && !sameNames(keys, expected)) {
    // A set of the expected names: `includes` per key made this quadratic in the number of options.
    const known = new Set(expected);
    const missing = expected.filter((k) => !Object.hasOwn(map, k));
    const extra = keys.filter((k) => !known.has(k));
    if (missing.length > 0 || extra.length > 0) {
      const parts = [];
      if (missing.length > 0) parts.push(`lacks ${listed(missing)}`);
      if (extra.length > 0) parts.push(`has unknown ${listed(extra)}`);
      issues.push({ path: [...queryPath, "evidence", key], message: `must hold one probability per ${what} (${listed(expected, false)}); it ${parts.join(" and ")}` });
      return issues;
    }
  } else if (!expected && keys.length < 2) {
    issues.push({ path: [...queryPath, "evidence", key], message: `must hold a probability for at least 2 ${what}s` });
    return issues;
  }
  let sum = 0;
  for (let i = 0; i < keys.length; i++) sum += map[keys[i]!]!;
  if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE) {
    issues.push({ path: [...queryPath, "evidence", key], message: `must sum to 1 (within ${PROBABILITY_SUM_TOLERANCE}); it sums to ${sum.toPrecision(6)}` });
  }
  return issues;
}

const allowed = (key: keyof Evidence, required: readonly (keyof Evidence)[], optional: readonly (keyof Evidence)[]) =>
  required.includes(key) || optional.includes(key);

/** Rule 4: the evidence a query carries at the backend's level. */
export function evidenceIssues(
  query: Query, level: AccessLevel, context: unknown, path: (string | number)[],
): RuleIssue[] {
  if (query.type === "route") return [];
  const evidence = query.evidence;
  const required = requiredEvidenceKeys(query.type, level);
  if (!evidence) {
    return [{ path: [...path, "evidence"], message: `is required at ${level} for a ${query.type} query (with ${required.join(", ")}) because the backend is client_evidence` }];
  }
  const issues: RuleIssue[] = [];
  const optional = optionalEvidenceKeys(query.type, level);
  for (let i = 0; i < required.length; i++) {
    const key = required[i]!;
    if (evidence[key] === undefined) {
      issues.push({ path: [...path, "evidence", key], message: `is required for a ${query.type} query at ${level}` });
    }
  }
  for (let i = 0; i < EVIDENCE_KEYS.length; i++) {
    const key = EVIDENCE_KEYS[i]!;
    if (evidence[key] !== undefined && !allowed(key, required, optional)) {
      const listed = [...new Set([...required, ...optional])].join(", ");
      issues.push({ path: [...path, "evidence", key], message: `is not sent for a ${query.type} query at ${level} (spec 2.3 lists ${listed})` });
    }
  }
  if (evidence.option_probabilities && allowed("option_probabilities", required, optional)) {
    const found = checkProbabilities(evidence.option_probabilities, expectedOptionNames(query, context), path, "option_probabilities", "option");
    if (found.length > 0) issues.push(...found);
  }
  if (evidence.level_probabilities && query.type === "interval" && allowed("level_probabilities", required, optional)) {
    issues.push(...checkProbabilities(evidence.level_probabilities, query.levels.map(String), path, "level_probabilities", "level"));
  }
  return issues;
}

/** Rules 1, 3 and 4 of the spec's "Evaluate rules" (2 is in the query schemas, 5 is the service's). */
export function evaluateRuleIssues(request: {
  context: unknown;
  backend?: { provider: string; access_level?: AccessLevel } | undefined;
  queries: Record<string, Query>;
}): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const entries = Object.entries(request.queries);
  if (entries.length === 0) issues.push({ path: ["queries"], message: "must name at least one query" });
  if (!request.backend) {
    const needing = entries.filter(([, q]) => !(q.type === "route" || (q.type === "judge" && q.cascade)));
    if (needing.length > 0) {
      issues.push({ path: ["backend"], message: `is required because ${needing.map(([n]) => `queries.${n}`).join(", ")} ${needing.length === 1 ? "has" : "have"} no cascade` });
    }
  }
  for (const [name, q] of entries) {
    const path = ["queries", name];
    if (q.type === "gate" && q.guarantee === "risk_high_probability" && q.delta === undefined) {
      issues.push({ path: [...path, "delta"], message: "is required when guarantee is risk_high_probability" });
    }
    if (q.type === "route" && q.guarantee === "cost_budget" && q.target_cents === undefined) {
      issues.push({ path: [...path, "target_cents"], message: "is required when guarantee is cost_budget" });
    }
    if (q.type === "interval" && new Set(q.levels.map(String)).size !== q.levels.length) {
      issues.push({ path: [...path, "levels"], message: "must not repeat a level" });
    }
    if (request.backend?.provider === "client_evidence" && request.backend.access_level) {
      const found = evidenceIssues(q, request.backend.access_level, request.context, path);
      if (found.length > 0) issues.push(...found);
    }
    if (q.type === "route") issues.push(...routeEvidenceIssues(q, path));
  }
  return issues;
}
