// A validation fast path for the most common evaluate request: a client_evidence backend and set queries that
// carry option probabilities. It accepts only what `evaluateRequestSchema` accepts and returns exactly what that
// schema's parse returns (the same keys in the same order, the same normalisation); anything it is not sure of
// (another query type, a model backend, samples, an unusual value) returns undefined and the caller runs the
// schema, so every error still comes from the schema with its usual message. Worth it because the schema walk
// costs about as much as the rest of an evaluate together (docs/service.md, "Performance").
//
// It mirrors these schemas field by field; the shape keys are checked against theirs when this module loads,
// and a mismatch switches the fast path off (a schema that grew a field is then validated by zod alone).
import { z } from "zod";
import { ACCESS_HINTS, ACCESS_LEVELS, PROFILE_NAME_PATTERN, SET_METHODS } from "./common.js";
import { clientEvidenceBackendSchema } from "./backend.js";
import { evidenceSchema, PROBABILITY_SUM_TOLERANCE } from "./evidence.js";
import { setQuerySchema } from "./query.js";

type Json = Record<string, unknown>;

const REQUEST_KEYS = ["context", "backend", "queries"] as const;
const BACKEND_KEYS = ["provider", "name", "access_level"] as const;
const SET_QUERY_KEYS = [
  "type", "instructions", "options", "alpha", "method", "group_by", "backend_access_hint", "calibration_profile", "evidence",
] as const;
const EVIDENCE_KEYS = ["option_probabilities", "level_probabilities", "samples", "hidden_states", "claim_scoring", "stage_outputs"] as const;

const sameKeys = (shape: object, keys: readonly string[]) => {
  const actual = Object.keys(shape);
  return actual.length === keys.length && actual.every((k, i) => k === keys[i]);
};

let enabled = sameKeys(clientEvidenceBackendSchema.shape, BACKEND_KEYS) && sameKeys(setQuerySchema.shape, SET_QUERY_KEYS)
  && sameKeys(evidenceSchema.shape, EVIDENCE_KEYS);

/** Called once by the module that defines the request schema, with its shape. */
export function checkEvaluateRequestShape(shape: object): void {
  if (!sameKeys(shape, REQUEST_KEYS)) enabled = false;
}

const REQUEST_KEY_SET: ReadonlySet<string> = new Set(REQUEST_KEYS);
const BACKEND_KEY_SET: ReadonlySet<string> = new Set(BACKEND_KEYS);
const SET_QUERY_KEY_SET: ReadonlySet<string> = new Set(SET_QUERY_KEYS);
const EVIDENCE_KEY_SET: ReadonlySet<string> = new Set(EVIDENCE_KEYS);
const LEVELS: ReadonlySet<unknown> = new Set(ACCESS_LEVELS);
const HINTS: ReadonlySet<unknown> = new Set(ACCESS_HINTS);

const zodPlainObject = z.core.util.isPlainObject;

/**
 * True while the value being checked is JSON.parse output: its objects then all have Object.prototype, no
 * symbol keys and no function-valued `constructor`, so the checks for those can be skipped.
 */
let parsedJson = false;

/** An object with Object.prototype (what JSON.parse makes) that zod's object and record checks both accept. */
function isPlain(value: unknown): value is Json {
  if (parsedJson) return typeof value === "object" && value !== null && !Array.isArray(value);
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype && zodPlainObject(value);
}

/**
 * The keys of an object a zod record would walk (Reflect.ownKeys minus the non-enumerable), or undefined when
 * it has a key the fast path leaves to the schema: a symbol (a record's string keys refuse it) or `__proto__`.
 */
function recordKeys(value: Json): string[] | undefined {
  if (!parsedJson && Object.getOwnPropertySymbols(value).length > 0) return undefined;
  const keys = Object.keys(value);
  return keys.includes("__proto__") ? undefined : keys;
}

/**
 * A loose object's unknown fields, copied as zod copies them (for…in order, after the declared fields);
 * false when one of them is `__proto__`, which zod drops.
 */
function copyExtras(input: Json, declared: ReadonlySet<string>, out: Json): boolean {
  for (const key in input) {
    if (declared.has(key)) continue;
    if (key === "__proto__") return false;
    out[key] = input[key];
  }
  return true;
}

/** contentSchema: a string, or an object of anything (copied, as its record branch does); arrays are left to zod. */
function content(value: unknown): unknown {
  if (typeof value === "string") return value;
  if (!isPlain(value)) return undefined;
  const keys = recordKeys(value);
  if (!keys) return undefined;
  const out: Json = {};
  for (const key of keys) out[key] = value[key];
  return out;
}

/** z.record(z.string(), z.number().min(0).max(1)). */
function probabilityMap(value: unknown): Json | undefined {
  if (!isPlain(value)) return undefined;
  const keys = recordKeys(value);
  if (!keys) return undefined;
  const out: Json = {};
  for (const key of keys) {
    const p = value[key];
    if (typeof p !== "number" || !(p >= 0 && p <= 1)) return undefined;
    out[key] = p;
  }
  return out;
}

/** evidenceSchema with option and/or level probabilities only. */
function evidence(value: unknown): Json | undefined {
  if (!isPlain(value)) return undefined;
  if ("samples" in value || "hidden_states" in value || "claim_scoring" in value || "stage_outputs" in value) return undefined;
  const out: Json = {};
  if ("option_probabilities" in value) {
    const map = probabilityMap(value.option_probabilities);
    if (!map) return undefined;
    out.option_probabilities = map;
  }
  if ("level_probabilities" in value) {
    const map = probabilityMap(value.level_probabilities);
    if (!map) return undefined;
    out.level_probabilities = map;
  }
  return copyExtras(value, EVIDENCE_KEY_SET, out) ? out : undefined;
}

/** setQuerySchema, its fields in its shape's order. */
function setQuery(q: Json): Json | undefined {
  const out: Json = { type: "set" };
  const instructions = "instructions" in q ? content(q.instructions) : undefined;
  if (instructions === undefined) return undefined;
  out.instructions = instructions;

  // z.record(z.string().min(1), z.string()) refined to at least 2 options.
  const rawOptions = q.options;
  if (!isPlain(rawOptions)) return undefined;
  const names = recordKeys(rawOptions);
  if (!names || names.length < 2) return undefined;
  const options: Json = {};
  for (const name of names) {
    const text = rawOptions[name];
    if (name.length === 0 || typeof text !== "string") return undefined;
    options[name] = text;
  }
  out.options = options;

  if ("alpha" in q) {
    const alpha = q.alpha;
    if (typeof alpha !== "number" || !(alpha > 0 && alpha < 1)) return undefined;
    out.alpha = alpha;
  }
  if ("method" in q) {
    // methodSchema: matched case-insensitively, normalised to the spec's spelling.
    const method = q.method;
    if (typeof method !== "string") return undefined;
    const lower = method.toLowerCase();
    const hit = SET_METHODS.find((m) => m.toLowerCase() === lower);
    if (hit === undefined) return undefined;
    out.method = hit;
  }
  if ("group_by" in q) {
    if (typeof q.group_by !== "string" || q.group_by.length === 0) return undefined;
    out.group_by = q.group_by;
  }
  if ("backend_access_hint" in q) {
    if (!HINTS.has(q.backend_access_hint)) return undefined;
    out.backend_access_hint = q.backend_access_hint;
  }
  const profile = q.calibration_profile;
  if (typeof profile !== "string" || profile.length === 0 || profile.length > 128 || !PROFILE_NAME_PATTERN.test(profile)) return undefined;
  out.calibration_profile = profile;
  if ("evidence" in q) {
    const ev = evidence(q.evidence);
    if (!ev) return undefined;
    out.evidence = ev;
  }
  return copyExtras(q, SET_QUERY_KEY_SET, out) ? out : undefined;
}

export interface FastPathOptions {
  /** `value` is what JSON.parse returned, untouched (the service's request bodies). Default false. */
  parsedJson?: boolean;
}

/**
 * What `evaluateRequestSchema`'s shape would parse `value` into, before the evaluate rules; undefined when the
 * request is not one this path covers (or is invalid): then parse it with the schema.
 */
export function fastEvaluateRequestShape(value: unknown, options?: FastPathOptions): Json | undefined {
  parsedJson = options?.parsedJson === true;
  try {
    return requestShape(value);
  } finally {
    parsedJson = false;
  }
}

function requestShape(value: unknown): Json | undefined {
  if (!enabled || !isPlain(value)) return undefined;
  const out: Json = {};
  const context = "context" in value ? content(value.context) : undefined;
  if (context === undefined) return undefined;
  out.context = context;

  if ("backend" in value) {
    // The client_evidence branch of backendSchema.
    const b = value.backend;
    if (!isPlain(b) || b.provider !== "client_evidence") return undefined;
    if (typeof b.name !== "string" || b.name.length === 0 || !LEVELS.has(b.access_level)) return undefined;
    const backend: Json = { provider: "client_evidence", name: b.name, access_level: b.access_level };
    if (!copyExtras(b, BACKEND_KEY_SET, backend)) return undefined;
    out.backend = backend;
  }

  const rawQueries = value.queries;
  if (!isPlain(rawQueries)) return undefined;
  const names = recordKeys(rawQueries);
  if (!names) return undefined;
  const queries: Json = {};
  for (const name of names) {
    const q = rawQueries[name];
    if (name.length === 0 || !isPlain(q) || q.type !== "set") return undefined;
    const parsed = setQuery(q);
    if (!parsed) return undefined;
    queries[name] = parsed;
  }
  out.queries = queries;
  return copyExtras(value, REQUEST_KEY_SET, out) ? out : undefined;
}

/**
 * True when `evaluateRuleIssues` would find nothing in a request the fast path returned: a backend above L0,
 * at least one query, and each set query's option_probabilities keyed by exactly its options and summing to 1.
 * False means "ask the rules", never "invalid": the caller then runs them, and they name what is wrong.
 */
export function fastRulesHold(request: Json): boolean {
  const backend = request.backend as Json | undefined;
  if (backend === undefined || backend.access_level === "L0") return false;
  const queries = request.queries as Record<string, Json>;
  let count = 0;
  for (const name in queries) {
    count++;
    const evidence = queries[name]!.evidence as Json | undefined;
    if (evidence === undefined || evidence.level_probabilities !== undefined) return false;
    const probabilities = evidence.option_probabilities as Record<string, number> | undefined;
    if (probabilities === undefined) return false;
    const options = queries[name]!.options as Json;
    const keys = Object.keys(probabilities);
    let optionCount = 0;
    for (const option in options) optionCount++;
    if (keys.length !== optionCount) return false;
    // The rules' order of summation, so that a sum at the tolerance's edge is judged alike.
    let sum = 0;
    for (const key of keys) {
      if (!Object.hasOwn(options, key)) return false;
      sum += probabilities[key]!;
    }
    if (!(Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE)) return false;
  }
  return count > 0;
}
