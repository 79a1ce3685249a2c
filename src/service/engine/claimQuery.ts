// claim queries: conformal factuality. The response's claims are scored (the client's own scores at L2+,
// else the fraction of samples that agree), and those above a threshold calibrated on labelled claims are
// retained: with probability ≥ 1 − α every retained claim is correct. Tied scores are broken at random (one
// seeded u per claim, seeds.ts) unless the query's tie_break is "conservative".
import type { ClaimAnswer, ClaimQuery, Evidence } from "../../api/index.js";
import { claimCalibration, claimExamples } from "./claimCalibration.js";
import { claimScores } from "./claimScores.js";
import { filterClaims, splitIntoClaims } from "./conformal.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { minimumNOf } from "./pools.js";
import { predictionRng } from "./seeds.js";
import type { QueryInput, QueryOutcome } from "./types.js";
import { invalidField } from "../errors.js";

/** The response's claims: those the first sample lists, else its sentences. */
function responseClaims(evidence: Evidence): string[] {
  const first = evidence.samples?.[0];
  if (first === undefined) return [];
  if (typeof first !== "string" && first.claims) return first.claims.map((c) => c.text);
  return splitIntoClaims(typeof first === "string" ? first : first.text);
}

export function answerClaim(input: QueryInput<ClaimQuery>): QueryOutcome {
  const { query, profile } = input;
  const evidence = input.evidence;
  if (!evidence?.samples) throw invalidField(`queries.${input.name}.evidence.samples`, `\`queries.${input.name}.evidence.samples\` is required for a claim query`);
  const alpha = query.alpha ?? profile.meta.alpha;
  const texts = responseClaims(evidence);
  const { scores, client } = claimScores(evidence, texts);
  const examples = claimExamples(profile);
  const needed = minimumNOf(alpha);
  const base = { alpha, n: examples.n, method: client ? "conformal-factuality (client claim scores)" : "conformal-factuality (sample agreement)" };
  if (examples.n < needed) {
    const verdicts = texts.map((text, i) => ({ text, score: scores[i]!, reason: scores[i]! >= 0.5 ? "heuristic_majority" : "heuristic_minority" }));
    const answer: ClaimAnswer = {
      type: "claim",
      retained_claims: verdicts.filter((v) => v.score >= 0.5),
      dropped_claims: verdicts.filter((v) => v.score < 0.5),
      guarantee: heuristicGuarantee(input, { ...base, needed, wanted: `factuality at alpha ${alpha}` }),
    };
    return { answer, insufficient: true };
  }
  // Ties broken at random unless the query asks for the conservative rule: one u per claim from the query's seed.
  const tieBreak = query.tie_break !== "conservative";
  const cal = claimCalibration(profile, alpha, tieBreak);
  const rng = tieBreak ? predictionRng(input) : undefined;
  const filtered = filterClaims(cal, texts.map((text, i) => ({ text, score: scores[i]! })), rng && Float64Array.from(texts, () => rng()));
  const answer: ClaimAnswer = {
    type: "claim",
    retained_claims: filtered.retained.map((c) => ({ text: c.text, reason: c.reason, score: c.score })),
    dropped_claims: filtered.dropped.map((c) => ({ text: c.text, reason: c.reason, score: c.score })),
    guarantee: guarantee(input, { ...base, kind: "factuality" }),
  };
  return { answer, insufficient: false };
}
