// The JSON of the most common evaluate answer (set answers, status 200) written straight from the engine's
// arrays, without the answer objects JSON.stringify would walk: building those objects and serialising them
// cost a fifth of an evaluate (docs/service.md, "Performance"). Each writer gives exactly the text
// JSON.stringify gives for the object named beside it (test/api/evaluateJson.test.ts holds them equal).
import type { Guarantee } from "./evaluate.js";

/** JSON.stringify of a number. */
const num = (x: number): string => (Number.isFinite(x) ? `${x}` : "null");

/** True when `name` is an array index, which an object lists before its other keys whatever their order. */
const isIndex = (name: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(name) && Number(name) < 4294967295;

/**
 * Names of a set query's options, quoted once: what setAnswerJson needs of them. Undefined when the object
 * JSON.stringify would serialise lists its keys in another order than `sorted` (an array-index name) or
 * drops one (`__proto__`): such answers are written by JSON.stringify.
 */
export interface SetAnswerNames {
  /** The option names in the query's order, quoted. */
  quoted: readonly string[];
  /** The option names in canonical (sorted) order, quoted, each followed by ":". */
  sortedKeys: readonly string[];
}

export function setAnswerNames(names: readonly string[], sorted: readonly string[]): SetAnswerNames | undefined {
  if (sorted.some((name) => name === "__proto__" || isIndex(name))) return undefined;
  return { quoted: names.map((name) => JSON.stringify(name)), sortedKeys: sorted.map((name) => `${JSON.stringify(name)}:`) };
}

/**
 * JSON.stringify of `{ type: "set", set, probabilities, venn_abers, guarantee }` (SetAnswer) where `set` is
 * the names whose `inSet[at + rank[i]]` is set, in the query's order, `probabilities` maps the sorted names to
 * `p`, `venn_abers` to `[p0[at + j], p1[at + j]]`, and `guaranteeJson` is JSON.stringify(guarantee).
 */
export function setAnswerJson(
  names: SetAnswerNames, rank: ArrayLike<number>, inSet: ArrayLike<number>, p: ArrayLike<number>,
  p0: ArrayLike<number>, p1: ArrayLike<number>, at: number, guaranteeJson: string,
): string {
  const { quoted, sortedKeys } = names;
  let out = '{"type":"set","set":[';
  let first = true;
  for (let i = 0; i < quoted.length; i++) {
    if (!inSet[at + rank[i]!]) continue;
    out += first ? quoted[i]! : `,${quoted[i]!}`;
    first = false;
  }
  out += '],"probabilities":{';
  for (let j = 0; j < sortedKeys.length; j++) out += `${j === 0 ? "" : ","}${sortedKeys[j]!}${num(p[j]!)}`;
  out += '},"venn_abers":{';
  for (let j = 0; j < sortedKeys.length; j++) out += `${j === 0 ? "" : ","}${sortedKeys[j]!}[${num(p0[at + j]!)},${num(p1[at + j]!)}]`;
  return `${out}},"guarantee":${guaranteeJson}}`;
}

/** The guarantee's JSON, for setAnswerJson. */
export const guaranteeJson = (guarantee: Guarantee): string => JSON.stringify(guarantee);

/**
 * JSON.stringify of an evaluate response `{ answers, backend?, usage, warnings }` (the 200 the service
 * writes) whose answers are given as their JSON, by query name in the order of `names` — the order of an
 * object's keys, which a caller takes from one (Object.keys).
 */
export function evaluateResponseJson(names: readonly string[], answers: readonly string[], backend: unknown, usage: unknown, warnings: readonly string[]): string {
  let out = '{"answers":{';
  for (let i = 0; i < names.length; i++) out += `${i === 0 ? "" : ","}${quoted(names[i]!)}:${answers[i]!}`;
  out += "}";
  const b = backendJson(backend);
  if (b !== undefined) out += `,"backend":${b}`;
  return `${out},"usage":${isNoUsage(usage) ? NO_USAGE : JSON.stringify(usage)},"warnings":${warnings.length === 0 ? "[]" : JSON.stringify(warnings)}}`;
}

/**
 * JSON.stringify of a string, remembered: a service sees the same query names, model names and levels in request
 * after request (object keys from JSON.parse are internalised, so the lookup is cheap). Bounded: cleared when full.
 */
const quotes = new Map<string, string>();
function quoted(text: string): string {
  let q = quotes.get(text);
  if (q === undefined) {
    q = JSON.stringify(text);
    if (quotes.size >= 4096) quotes.clear();
    if (text.length <= 128) quotes.set(text, q);
  }
  return q;
}

const NO_USAGE = JSON.stringify({ backend_calls: 0, backend_tokens: 0 });
const USAGE_KEYS = ["backend_calls", "backend_tokens"];

/** The usage of a request that called no backend, keys in the order NO_USAGE has them. */
function isNoUsage(usage: unknown): boolean {
  if (typeof usage !== "object" || usage === null) return false;
  const u = usage as Record<string, unknown>;
  return u.backend_calls === 0 && u.backend_tokens === 0 && sameKeys(u, USAGE_KEYS);
}

const CLIENT_EVIDENCE_KEYS = ["provider", "name", "access_level"];

/** JSON.stringify(backend), written directly for a client_evidence backend of its three string fields. */
function backendJson(backend: unknown): string | undefined {
  if (typeof backend === "object" && backend !== null && !Array.isArray(backend)) {
    const b = backend as Record<string, unknown>;
    if (b.provider === "client_evidence" && typeof b.name === "string" && typeof b.access_level === "string" && sameKeys(b, CLIENT_EVIDENCE_KEYS)
      && typeof b.toJSON !== "function") {
      return `{"provider":"client_evidence","name":${quoted(b.name)},"access_level":${quoted(b.access_level)}}`;
    }
  }
  return JSON.stringify(backend);
}

/** True when the object's own enumerable string keys are exactly `keys`, in that order (as JSON.stringify lists them). */
function sameKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    if (key !== keys[i++]) return false;
  }
  return i === keys.length;
}
