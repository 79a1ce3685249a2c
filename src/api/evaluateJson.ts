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
  for (let i = 0; i < names.length; i++) out += `${i === 0 ? "" : ","}${JSON.stringify(names[i]!)}:${answers[i]!}`;
  out += "}";
  const b = JSON.stringify(backend);
  if (b !== undefined) out += `,"backend":${b}`;
  return `${out},"usage":${JSON.stringify(usage)},"warnings":${JSON.stringify(warnings)}}`;
}
