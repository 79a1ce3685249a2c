// Local recomputation of claim answers (conformal factuality, Mohri & Hashimoto 2024): the response's claims
// scored as the service scores them (the client's own scores at L2+, else sample agreement), filtered by the
// threshold calibrated on the profile's labelled claims, ties broken by the service's seeded uniforms.
import { labelledClaims, type ClaimQuery, type Evidence } from "../api/index.js";
import {
  calibrateClaims, claimExample, filterClaims, minimumN, rngFromString, scoreClaims, splitIntoClaims,
  type CalibratedClaims, type LabelledClaim,
} from "../conformal/index.js";
import { exampleEvidence, predictionSeedText, profileFields, type LocalEngine, type LocalResult } from "./crossCheckEvidence.js";

/** The response's claims: those the first sample lists, else its sentences. */
function responseClaims(evidence: Evidence): string[] {
  const first = evidence.samples?.[0];
  if (first === undefined) return [];
  if (typeof first !== "string" && first.claims) return first.claims.map((c) => c.text);
  return splitIntoClaims(typeof first === "string" ? first : first.text);
}

function claimExamples(engine: LocalEngine): { claims: LabelledClaim[][]; uniforms: Float64Array[] } {
  return engine.cached("claims", () => {
    const claims: LabelledClaim[][] = [];
    const uniforms: Float64Array[] = [];
    engine.examples.forEach((example, position) => {
      const labelled = labelledClaims(example.label);
      const evidence = exampleEvidence(example);
      if (!labelled || !evidence?.samples) return;
      const scored = claimExample(labelled, evidence.samples, engine.profile.name, position);
      claims.push(scored.claims);
      uniforms.push(scored.uniforms);
    });
    return { claims, uniforms };
  });
}

export function localClaimAnswer(engine: LocalEngine, name: string, query: ClaimQuery, requestId: string): LocalResult {
  const evidence = query.evidence;
  if (!evidence?.samples) return { unchecked: `query ${name} has no samples` };
  const alpha = query.alpha ?? engine.profile.alpha;
  const texts = responseClaims(evidence);
  const { scores, client } = scoreClaims(evidence.samples, texts);
  const { claims: examples, uniforms } = claimExamples(engine);
  const base = {
    ...profileFields(engine), alpha, n: examples.length,
    method: client ? "conformal-factuality (client claim scores)" : "conformal-factuality (sample agreement)",
  };
  if (examples.length < minimumN(alpha)) {
    const verdicts = texts.map((text, i) => ({ text, score: scores[i]!, reason: scores[i]! >= 0.5 ? "heuristic_majority" : "heuristic_minority" }));
    return {
      answer: {
        type: "claim", retained_claims: verdicts.filter((v) => v.score >= 0.5), dropped_claims: verdicts.filter((v) => v.score < 0.5),
        guarantee: { ...base, kind: "heuristic", holds: false },
      },
    };
  }
  const tieBreak = query.tie_break !== "conservative";
  const cal = engine.cached(`claim-cal|${alpha}|${tieBreak}`, (): CalibratedClaims => calibrateClaims(examples, { alpha, ...(tieBreak ? { uniforms } : {}) }));
  const rng = tieBreak ? rngFromString(predictionSeedText(engine, requestId, name)) : undefined;
  const filtered = filterClaims(cal, texts.map((text, i) => ({ text, score: scores[i]! })), rng && Float64Array.from(texts, () => rng()));
  const verdict = (c: { text: string; reason: string; score: number }) => ({ text: c.text, reason: c.reason, score: c.score });
  return {
    answer: {
      type: "claim", retained_claims: filtered.retained.map(verdict), dropped_claims: filtered.dropped.map(verdict),
      guarantee: { ...base, kind: "factuality", holds: true },
    },
  };
}
