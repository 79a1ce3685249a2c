// Scores of a response's claims: the client's own score for the same (normalised) claim text at L2+, else
// the fraction of samples that agree with the claim (the engine's scoreClaims, which a client reproduces).
import type { Evidence } from "../../api/index.js";
import { scoreClaims } from "./conformal.js";

/** Scores of `claims`: the client's score for the same (normalised) claim text, else sample agreement. */
export const claimScores = (evidence: Evidence, claims: readonly string[]): { scores: Float64Array; client: boolean } =>
  scoreClaims(evidence.samples ?? [], claims);
