// claim queries: conformal factuality. The response's claims are scored (the client's own scores at L2+,
// else the fraction of samples that agree), and those above a threshold calibrated on labelled claims are
// retained: with probability ≥ 1 − α every retained claim is correct.
import type { ClaimAnswer, ClaimQuery, Evidence, Sample } from "../../api/index.js";
import { agreementFrequencies, calibrateClaims, filterClaims, normalizeClaimText, splitIntoClaims, type LabelledClaim } from "./conformal.js";
import { exampleEvidence } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { cached, minimumNOf } from "./pools.js";
import type { QueryInput, QueryOutcome } from "./types.js";
import { invalidField } from "../errors.js";

/** Scores of `claims`: the client's score for the same (normalised) claim text, else sample agreement. */
export function claimScores(evidence: Evidence, claims: readonly string[]): { scores: Float64Array; client: boolean } {
  const samples = evidence.samples ?? [];
  const clientScores = new Map<string, number>();
  for (const s of samples) {
    if (typeof s === "string") continue;
    for (const c of s.claims ?? []) {
      const key = normalizeClaimText(c.text);
      if (!clientScores.has(key)) clientScores.set(key, c.score);
    }
  }
  const agreement = agreementFrequencies(claims, samples.map((s: Sample) => (typeof s === "string" ? s : s.claims ? s.claims.map((c) => c.text) : s.text)));
  const scores = new Float64Array(claims.length);
  let client = clientScores.size > 0;
  claims.forEach((text, i) => {
    const own = clientScores.get(normalizeClaimText(text));
    if (own === undefined) client = false;
    scores[i] = own ?? agreement[i]!;
  });
  return { scores, client };
}

/** The response's claims: those the first sample lists, else its sentences. */
function responseClaims(evidence: Evidence): string[] {
  const first = evidence.samples?.[0];
  if (first === undefined) return [];
  if (typeof first !== "string" && first.claims) return first.claims.map((c) => c.text);
  return splitIntoClaims(typeof first === "string" ? first : first.text);
}

/** Labelled claims per example: `label.claims` = [{text, correct}], scored from the example's evidence. */
function claimExamples(input: QueryInput): LabelledClaim[][] {
  return cached(input.profile, "claims", () => {
    const out: LabelledClaim[][] = [];
    for (const example of input.profile.examples) {
      const label = example.label as { claims?: unknown } | undefined;
      if (!label || typeof label !== "object" || !Array.isArray(label.claims)) continue;
      const evidence = exampleEvidence(example);
      if (!evidence?.samples) continue;
      const labelled = (label.claims as unknown[]).filter(
        (c): c is { text: string; correct: boolean } => !!c && typeof (c as { text?: unknown }).text === "string" && typeof (c as { correct?: unknown }).correct === "boolean",
      );
      const { scores } = claimScores(evidence, labelled.map((c) => c.text));
      out.push(labelled.map((c, i) => ({ score: scores[i]!, correct: c.correct })));
    }
    return out;
  });
}

export function answerClaim(input: QueryInput<ClaimQuery>): QueryOutcome {
  const { query, profile } = input;
  const evidence = input.evidence;
  if (!evidence?.samples) throw invalidField(`queries.${input.name}.evidence.samples`, `\`queries.${input.name}.evidence.samples\` is required for a claim query`);
  const alpha = query.alpha ?? profile.meta.alpha;
  const texts = responseClaims(evidence);
  const { scores, client } = claimScores(evidence, texts);
  const examples = claimExamples(input);
  const needed = minimumNOf(alpha);
  const base = { alpha, n: examples.length, method: client ? "conformal-factuality (client claim scores)" : "conformal-factuality (sample agreement)" };
  if (examples.length < needed) {
    const verdicts = texts.map((text, i) => ({ text, score: scores[i]!, reason: scores[i]! >= 0.5 ? "heuristic_majority" : "heuristic_minority" }));
    const answer: ClaimAnswer = {
      type: "claim",
      retained_claims: verdicts.filter((v) => v.score >= 0.5),
      dropped_claims: verdicts.filter((v) => v.score < 0.5),
      guarantee: heuristicGuarantee(input, { ...base, needed, wanted: `factuality at alpha ${alpha}` }),
    };
    return { answer, insufficient: true };
  }
  const cal = cached(profile, `claim-cal|${alpha}`, () => calibrateClaims(examples, { alpha }));
  const filtered = filterClaims(cal, texts.map((text, i) => ({ text, score: scores[i]! })));
  const answer: ClaimAnswer = {
    type: "claim",
    retained_claims: filtered.retained.map((c) => ({ text: c.text, reason: c.reason, score: c.score })),
    dropped_claims: filtered.dropped.map((c) => ({ text: c.text, reason: c.reason, score: c.score })),
    guarantee: guarantee(input, { ...base, kind: "factuality" }),
  };
  return { answer, insufficient: false };
}
