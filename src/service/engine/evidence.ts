// Probabilities out of evidence, for queries and for stored examples alike (DESIGN.md: examples carry the
// same evidence shape in `metadata.evidence`). At L0 the probabilities are sample frequencies: a sample
// counts for the option whose name it equals after trimming and lower-casing; unmatched samples are ignored.
import { safeParseEvidence, type Evidence, type ExampleRecord, type Sample } from "../../api/index.js";

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

/** The evidence stored with an example, when it is well formed (checked again at ingestion). */
export function exampleEvidence(example: ExampleRecord): Evidence | undefined {
  const raw = example.metadata?.evidence;
  if (raw === undefined) return undefined;
  const parsed = safeParseEvidence(raw);
  return parsed.success ? parsed.data : undefined;
}

/** A label as an option or level name: strings as they are, numbers and booleans spelled out (true → yes). */
export function labelName(label: unknown, booleanNames: [string, string] = ["yes", "no"]): string | undefined {
  if (typeof label === "string") return label;
  if (typeof label === "number" && Number.isFinite(label)) return String(label);
  if (typeof label === "boolean") return label ? booleanNames[0] : booleanNames[1];
  return undefined;
}
