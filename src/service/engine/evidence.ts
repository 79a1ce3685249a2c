// Probabilities out of evidence, for queries and for stored examples alike (DESIGN.md: examples carry the
// same evidence shape in `metadata.evidence`). At L0 the probabilities are sample frequencies: a sample
// counts for the option whose name it equals after trimming and lower-casing; unmatched samples are ignored.
import { evidenceSchema, type Evidence, type ExampleRecord, type Sample } from "../../api/index.js";

const sampleText = (s: Sample): string => (typeof s === "string" ? s : s.text);

function frequencies(samples: readonly Sample[], names: readonly string[]): Float64Array | undefined {
  const counts = new Float64Array(names.length);
  const index = new Map(names.map((n, i) => [n.trim().toLowerCase(), i]));
  let total = 0;
  for (const s of samples) {
    const j = index.get(sampleText(s).trim().toLowerCase());
    if (j !== undefined) {
      counts[j]!++;
      total++;
    }
  }
  if (total === 0) return undefined;
  for (let j = 0; j < counts.length; j++) counts[j]! /= total;
  return counts;
}

/**
 * p(name) for each of `names`, in that order, from `option_probabilities` (or `level_probabilities` when
 * `levels`), else from sample frequencies; undefined when the evidence covers other names.
 */
export function probabilitiesOf(evidence: Evidence | undefined, names: readonly string[], levels = false): Float64Array | undefined {
  if (!evidence) return undefined;
  const map = levels ? evidence.level_probabilities : evidence.option_probabilities;
  if (map) {
    const keys = Object.keys(map);
    if (keys.length !== names.length) return undefined;
    const out = new Float64Array(names.length);
    for (let j = 0; j < names.length; j++) {
      const p = Object.hasOwn(map, names[j]!) ? map[names[j]!] : undefined;
      if (p === undefined) return undefined;
      out[j] = p;
    }
    return out;
  }
  return evidence.samples ? frequencies(evidence.samples, names) : undefined;
}

/** True when the probabilities came from samples (L0): the guarantee says so. */
export const fromSamples = (evidence: Evidence | undefined, levels = false): boolean =>
  !!evidence && !(levels ? evidence.level_probabilities : evidence.option_probabilities) && !!evidence.samples;

/** A probability map the schema would accept as it is: an object of numbers in [0, 1], no `__proto__` key. */
function plainProbabilities(map: unknown): boolean {
  if (map === undefined) return true;
  if (map === null || typeof map !== "object" || Array.isArray(map)) return false;
  for (const key of Object.keys(map)) {
    const p = (map as Record<string, unknown>)[key];
    if (key === "__proto__" || typeof p !== "number" || !(p >= 0 && p <= 1)) return false;
  }
  return true;
}

/**
 * The evidence stored with an example, when it is well formed (checked again at ingestion). Evidence of
 * probability maps alone, the common case, is checked by hand: the schema costs about 10 µs an example, which
 * a pool scan pays for every example of the profile and ingestion for every example of a batch.
 */
export function exampleEvidence(example: ExampleRecord): Evidence | undefined {
  const raw = example.metadata?.evidence;
  if (raw === undefined) return undefined;
  const plain = plainEvidence(raw);
  if (plain) return plain;
  const parsed = evidenceSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** The evidence as it is when it holds probability maps alone that the schema accepts unchanged; else undefined. */
export function plainEvidence(raw: unknown): Evidence | undefined {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  if (o.samples !== undefined || o.hidden_states !== undefined || o.claim_scoring !== undefined) return undefined;
  return plainProbabilities(o.option_probabilities) && plainProbabilities(o.level_probabilities) ? (o as Evidence) : undefined;
}

/** A label as an option or level name: strings as they are, numbers and booleans spelled out (true → yes). */
export function labelName(label: unknown, booleanNames: [string, string] = ["yes", "no"]): string | undefined {
  if (typeof label === "string") return label;
  if (typeof label === "number" && Number.isFinite(label)) return String(label);
  if (typeof label === "boolean") return label ? booleanNames[0] : booleanNames[1];
  return undefined;
}
