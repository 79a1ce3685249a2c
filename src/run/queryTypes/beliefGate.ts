// belief: yes/no items → Venn–Abers beliefs on p(yes); gate: pass/fail items → auto_approve / escalate /
// abstain under risk, risk_high_probability or fdr. Both score the statement against its story (σ of its PMI).
import { guaranteeStatement, type BeliefAnswer, type ExampleRecord, type GateAnswer } from "../../api/index.js";
import type { PassFailItem, YesNoItem } from "../../datasets/index.js";
import type { QuerySection } from "../../report/index.js";
import { reliabilityBins, type BeliefPair } from "../analysis.js";
import { gateFailBudget } from "../../conformal/index.js";
import { approvedFailsUpper, BAND_LEVEL, bernoulliHalfWidth } from "./bands.js";
import { cachedStatementPmi } from "./cachedCalls.js";
import { sigmoid } from "./statementEvidence.js";
import type { Driver, DriverContext, Prepared } from "./types.js";

type Statement = YesNoItem | PassFailItem;
const positive = (i: Statement) => i.answer === "yes" || i.answer === "pass";

async function prepareStatements(items: readonly Statement[], ctx: DriverContext, names: [string, string], type: "belief" | "gate", extra: Record<string, unknown>): Promise<Prepared[]> {
  const pmi = await cachedStatementPmi(ctx.rows, ctx.adapter, ctx.accessLevel, items.map((i) => ({ story: i.context, statement: i.question })), ctx.progress);
  return items.map((item, k) => {
    const p = sigmoid(pmi[k]!);
    const evidence = { option_probabilities: { [names[0]]: p, [names[1]]: 1 - p } };
    const label = positive(item) ? names[0] : names[1];
    const record: ExampleRecord = {
      context: `${item.context}\n${item.question}`, label, ...(item.group !== undefined ? { group: item.group } : {}),
      metadata: { id: item.id, evidence, access_level: ctx.accessLevel },
    };
    return { id: item.id, record, context: item.context, query: { type, instructions: item.question, evidence, ...extra }, truth: label };
  });
}

export const beliefDriver: Driver = {
  type: "belief", kinds: ["yes_no", "pass_fail"], clientEvidence: true, needsStages: false,
  prepare: (items, ctx) => prepareStatements(items as Statement[], ctx, ["yes", "no"], "belief", {}),
  summarise(outcomes): QuerySection {
    const m = outcomes.length;
    const pairs: BeliefPair[] = [];
    let yes = 0, p0 = 0, p1 = 0, variance = 0, pY = 0, merged = 0;
    for (const { prepared, answer } of outcomes) {
      const a = answer as BeliefAnswer;
      const gold = prepared.truth === "yes";
      if (gold) yes++;
      p0 += a.venn_abers[0];
      p1 += a.venn_abers[1];
      variance += a.probability * (1 - a.probability);
      pY += gold ? a.venn_abers[1] : a.venn_abers[0];
      merged += a.probability;
      // The reliability diagram of the yes option (and of no, its complement): each item once per option.
      pairs.push({ p0: a.venn_abers[0], p1: a.venn_abers[1], gold });
    }
    const observed = yes / m;
    const half = bernoulliHalfWidth(m, variance);
    const band: [number, number] = [Math.max(0, p0 / m - half), Math.min(1, p1 / m + half)];
    const reliability = reliabilityBins(pairs);
    const used = reliability.bins.filter((b) => b.count > 0);
    const expected = used.reduce((s, b) => s + (b.count / m) * Math.abs(b.meanBelief - b.observed), 0);
    const maximum = used.reduce((s, b) => Math.max(s, Math.abs(b.meanBelief - b.observed)), 0);
    return {
      guarantee: guaranteeStatement("belief", "calibration"),
      quantity: "observed frequency of yes on the test split",
      value: observed, target: (p0 + p1) / (2 * m), band, inBand: observed >= band[0] && observed <= band[1], n: m,
      bandNote: `mean [p0, p1] widened by ${BAND_LEVEL * 100}% of the spread of ${m} Bernoulli(p) draws`,
      rates: [
        { name: "mean p0", value: p0 / m }, { name: "mean p1", value: p1 / m },
        { name: "mean p_Y (the fit for the label that occurred; calibrated)", value: pY / m },
        { name: "mean probability p1/(1 − p0 + p1) (no guarantee of its own)", value: merged / m },
        { name: "accuracy of p ≥ 0.5", value: outcomes.filter(({ prepared, answer }) => ((answer as BeliefAnswer).probability >= 0.5) === (prepared.truth === "yes")).length / m },
      ],
      reliability, calibrationErrors: { expected, maximum },
    };
  },
};

export const GATE_GUARANTEES = ["risk", "risk_high_probability", "fdr"] as const;

/** Consecutive runs of `size` (the last may be shorter). */
const chunks = <T>(xs: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(xs.length / size) }, (_, k) => xs.slice(k * size, (k + 1) * size));

export const gateDriver: Driver = {
  type: "gate", kinds: ["pass_fail", "yes_no"], clientEvidence: true, needsStages: false,
  prepare: (items, ctx) => prepareStatements(items as Statement[], ctx, ["pass", "fail"], "gate", {
    guarantee: ctx.guarantee ?? "risk", target: ctx.target ?? ctx.alpha,
    ...((ctx.guarantee ?? "risk") === "risk_high_probability" ? { delta: ctx.delta ?? 0.1 } : {}),
  }),
  summarise(outcomes, ctx): QuerySection {
    const m = outcomes.length;
    const guarantee = (ctx.guarantee ?? "risk") as (typeof GATE_GUARANTEES)[number];
    const target = ctx.target ?? ctx.alpha;
    const delta = guarantee === "risk_high_probability" ? ctx.delta ?? 0.1 : undefined;
    const count = (d: string) => outcomes.filter((o) => (o.answer as GateAnswer).decision === d).length;
    const isFail = (o: { prepared: { truth: unknown } }) => o.prepared.truth === "fail";
    const approvedFail = (o: (typeof outcomes)[number]) => isFail(o) && (o.answer as GateAnswer).decision === "auto_approve";
    const approved = outcomes.filter((o) => (o.answer as GateAnswer).decision === "auto_approve");
    const fails = approved.filter(isFail).length;
    // The band of the approved fails (bands.ts): beta-binomial in the test fails, from the calibration fails and
    // the count of them the rule lets through.
    const calibrationFails = ctx.calibration.filter((p) => p.truth === "fail").length;
    const testFails = outcomes.filter(isFail).length;
    const budget = gateFailBudget(guarantee, ctx.calibrationN, target, delta);
    const upperFails = approvedFailsUpper(testFails, calibrationFails, budget);
    const batch = guarantee === "fdr" ? Math.max(1, ctx.batchSize ?? 1) : 1;
    const rates = [
      { name: "auto_approve rate", value: count("auto_approve") / m },
      { name: "escalate rate", value: count("escalate") / m },
      { name: "abstain rate", value: count("abstain") / m },
      { name: "fails among the auto-approved", value: approved.length ? fails / approved.length : 0, note: guarantee === "fdr" ? "pooled over batches" : "not controlled by this guarantee" },
      { name: "pass rate of the test split", value: outcomes.filter((o) => o.prepared.truth === "pass").length / m },
    ];
    const statement = guaranteeStatement("gate", guarantee, { target, delta });
    const bandNote = `${BAND_LEVEL * 100}% quantile of the approved fails' beta-binomial law given ${calibrationFails} calibration and ${testFails} test fails, mixed over calibration draws (K = ${budget} calibration fails let through)`;
    if (batch === 1) {
      const value = m === 0 ? 0 : fails / m;
      const upper = m === 0 ? 0 : upperFails / m;
      return {
        guarantee: statement,
        quantity: guarantee === "fdr" ? "realized FDR of batches of one = P(auto_approve and fail) (auto-approved fails / test items)" : "realized risk P(auto_approve and fail) (auto-approved fails / test items)",
        value, target, band: [0, upper], inBand: value <= upper, n: m, bandNote, rates,
      };
    }
    // Batches of `batch` queries, each one request and one BH batch: the realized FDR of each, and their mean.
    const fdp = chunks(outcomes, batch).map((b) => {
      const r = b.filter((o) => (o.answer as GateAnswer).decision === "auto_approve").length;
      return r === 0 ? 0 : b.filter(approvedFail).length / r;
    });
    const value = fdp.reduce((a, b) => a + b, 0) / fdp.length;
    // Each batch's false discovery proportion is at most its approved fails, which BH (p ≤ q·R/b ≤ q) keeps within
    // those a batch of one approves: the mean is at most the band of approved fails over the number of batches.
    const upper = Math.min(1, upperFails / fdp.length);
    return {
      guarantee: statement,
      quantity: `mean realized FDR of ${fdp.length} batches of ${batch} (auto-approved fails / auto-approved, 0 when none, per batch)`,
      value, target, band: [0, upper], inBand: value <= upper, n: m,
      bandNote: `${bandNote}, over ${fdp.length} batches (a batch's FDR is at most its approved fails; conservative)`,
      rates, batches: { size: batch, fdr: fdp },
    };
  },
};
