// `calibkit conformal belief | gate | claim`: scores and claims, read the same way as the other types.
import * as C from "../../conformal/index.js";
import { fail, finiteNumber } from "./columns.js";
import { JsonOut, finite, num } from "./output.js";
import { loadRecords, readRecords, type Rec, type Source } from "./records.js";
import { UsageError, type ConformalOptions } from "./options.js";

function labelBit(src: Source, i: number, l: unknown, yes: string[], no: string[]): number {
  if (yes.includes(l as string) || l === 1 || l === true) return 1;
  if (no.includes(l as string) || l === 0 || l === false) return 0;
  return fail(src, i, "label", `must be ${[...yes, ...no].map((x) => JSON.stringify(x)).join(" or ")}, got ${JSON.stringify(l)}`);
}

export function runBelief(o: ConformalOptions): void {
  const scores: number[] = [];
  const labels: number[] = [];
  readRecords(o.calibration, (r, i, src) => {
    scores.push(finiteNumber(src, i, "score", r.score));
    labels.push(labelBit(src, i, r.label, ["1"], ["0"]));
  });
  const c = C.calibrateBelief(scores, labels);
  const test: number[] = [];
  readRecords(o.test, (r, i, src) => test.push(finiteNumber(src, i, "score", r.score)));
  const b = C.predictBeliefBatch(c, Float64Array.from(test));
  const out = new JsonOut({ type: "belief", seed: o.seedPrinted, method: "venn-abers", n: c.n });
  for (let i = 0; i < test.length; i++) out.add(`{"probability":${num(b.probability[i]!)},"venn_abers":[${num(b.p0[i]!)},${num(b.p1[i]!)}]}`);
  out.end();
}

export function runGate(o: ConformalOptions): void {
  if (!o.guarantee) throw new UsageError("gate needs --guarantee (risk, risk_high_probability or fdr)");
  if (o.target === undefined) throw new UsageError("gate needs --target");
  const cal = loadRecords(o.calibration);
  const c = C.calibrateGate(
    { scores: cal.records.map((r, i) => finiteNumber(cal.src, i, "score", r.score)), labels: cal.records.map((r, i) => labelBit(cal.src, i, r.label, ["pass"], ["fail"])) },
    { guarantee: o.guarantee as C.GateGuarantee, target: o.target, ...(o.delta !== undefined ? { delta: o.delta } : {}) },
  );
  const test = loadRecords(o.test);
  const decisions = C.decideBatch(c, test.records.map((r, i) => finiteNumber(test.src, i, "score", r.score)));
  const out = new JsonOut({ type: "gate", seed: o.seedPrinted, method: c.guarantee, target: c.target, ...(c.delta !== undefined ? { delta: c.delta } : {}), n: c.n, threshold: finite(c.threshold), feasible: c.feasible });
  for (const d of decisions) out.add(JSON.stringify({ decision: d }));
  out.end();
}

function claimsOf(src: Source, i: number, r: Rec, labelled: boolean): { text: string; score: number; correct: boolean }[] {
  if (!Array.isArray(r.claims)) fail(src, i, "claims", "must be an array of {text, score, correct}");
  const texts = (r.claims as Rec[]).map((c, j) => (typeof c?.text === "string" ? c.text : fail(src, i, `claims[${j}].text`, "must be a string")));
  const needFreq = (r.claims as Rec[]).some((c) => c.score === undefined);
  if (needFreq && !Array.isArray(r.samples)) fail(src, i, "claims", "every claim needs a score, or the record needs samples to score them by agreement");
  const freq = needFreq ? C.agreementFrequencies(texts, r.samples as string[]) : undefined;
  return (r.claims as Rec[]).map((c, j) => {
    if (labelled && typeof c.correct !== "boolean") fail(src, i, `claims[${j}].correct`, "must be true or false");
    return { text: texts[j]!, score: c.score === undefined ? freq![j]! : finiteNumber(src, i, `claims[${j}].score`, c.score), correct: c.correct === true };
  });
}

export function runClaim(o: ConformalOptions): void {
  const cal = loadRecords(o.calibration);
  const examples = cal.records.map((r, i) => claimsOf(cal.src, i, r, true));
  // Tied claim scores broken by the seed's draws (one per calibration claim in order, then one per test claim),
  // unless --randomized off keeps tied claims together.
  const tieBreak = o.randomized !== false;
  const draw = (k: number) => Float64Array.from({ length: k }, () => o.rng());
  const c = C.calibrateClaims(examples, { alpha: o.alpha, ...(tieBreak ? { uniforms: examples.map((e) => draw(e.length)) } : {}) });
  const test = loadRecords(o.test);
  const out = new JsonOut({ type: "claim", alpha: o.alpha, seed: o.seedPrinted, method: "conformal-factuality", tie_break: tieBreak ? "random" : "conservative", n: c.n, threshold: finite(c.threshold) });
  test.records.forEach((r, i) => {
    const claims = claimsOf(test.src, i, r, false);
    const f = C.filterClaims(c, claims, tieBreak ? draw(claims.length) : undefined);
    out.add(JSON.stringify({ retained_claims: f.retained, dropped_claims: f.dropped }));
  });
  out.end();
}
