// claim: responses split into claims marked true or false → retained and dropped claims. Each claim is scored
// by σ of its PMI with the story (the client's own claim scores, L2+); the report measures the factuality of
// what is retained (no false claim kept) against 1 − α, and the share of claims kept.
import { guaranteeStatement, type ClaimAnswer, type ExampleRecord } from "../../api/index.js";
import { normalizeClaimText } from "../../conformal/index.js";
import type { ClaimsItem } from "../../datasets/index.js";
import type { QuerySection } from "../../report/index.js";
import { coverageBand } from "../coverageBand.js";
import { cachedStatementPmi } from "./cachedCalls.js";
import { sigmoid } from "./statementEvidence.js";
import type { Driver, Prepared } from "./types.js";

export const claimDriver: Driver = {
  type: "claim", kinds: ["claims"], clientEvidence: true, needsStages: false,
  async prepare(items, ctx): Promise<Prepared[]> {
    const list = items as ClaimsItem[];
    const pairs = list.flatMap((i) => i.claims.map((c) => ({ story: i.context, statement: c.text })));
    const pmi = await cachedStatementPmi(ctx.rows, ctx.adapter, ctx.accessLevel, pairs, () => undefined);
    let at = 0;
    return list.map((item) => {
      const claims = item.claims.map((c) => ({ text: c.text, score: sigmoid(pmi[at++]!) }));
      ctx.progress(1);
      const evidence = { samples: [{ text: item.response, claims }], claim_scoring: "client" };
      const record: ExampleRecord = {
        context: item.context, label: { claims: item.claims }, ...(item.group !== undefined ? { group: item.group } : {}),
        metadata: { id: item.id, evidence, access_level: ctx.accessLevel },
      };
      return { id: item.id, record, context: item.context, query: { type: "claim", instructions: item.question ?? "State what the story says.", evidence }, truth: item.claims };
    });
  },
  summarise(outcomes, ctx): QuerySection {
    const m = outcomes.length;
    let factual = 0, kept = 0, total = 0, keptCorrect = 0;
    for (const { prepared, answer } of outcomes) {
      const truth = new Map((prepared.truth as ClaimsItem["claims"]).map((c) => [normalizeClaimText(c.text), c.correct]));
      const a = answer as ClaimAnswer;
      const correct = a.retained_claims.map((c) => truth.get(normalizeClaimText(c.text)) === true);
      if (correct.every(Boolean)) factual++;
      kept += a.retained_claims.length;
      keptCorrect += correct.filter(Boolean).length;
      total += a.retained_claims.length + a.dropped_claims.length;
    }
    const band = coverageBand(m, ctx.calibrationN, ctx.alpha);
    const value = factual / m;
    return {
      guarantee: guaranteeStatement("claim", "factuality", { alpha: ctx.alpha }),
      quantity: "factuality (responses whose retained claims are all true)",
      value, target: 1 - ctx.alpha, band, inBand: value >= band[0], n: m,
      bandNote: "the split-conformal beta-binomial band at 99.9%; only its lower end binds, since responses with no false claim tie and push factuality up",
      rates: [
        { name: "fraction of claims kept", value: total ? kept / total : 0 },
        { name: "precision of kept claims", value: kept ? keptCorrect / kept : 1 },
      ],
    };
  },
};
