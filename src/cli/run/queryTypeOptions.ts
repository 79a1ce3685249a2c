// The options of typed runs: `--query-type`, the gate / route guarantee (`--guarantee`, `--target`, `--delta`)
// and the cascade stages (`--stage NAME=URL[@CENTS]`, repeatable) served by `calibkit serve-model`.
import { GUARANTEES, QUERY_TYPE_NAMES, type QueryTypeName, type QueryTypeOptions, type StageOption } from "../../run/index.js";

export const QUERY_TYPE_USAGE = `  --query-type T     belief, set, interval, gate, claim, judge or route (default: from the dataset's
                     kind: yes/no → belief, multiple choice → set, ordinal → interval, pass/fail → gate,
                     claims → claim, pairwise → judge, reference → route)
  --guarantee G      gate: risk, risk_high_probability or fdr (default risk);
                     route: cost_budget or accuracy (default cost_budget)
  --target X         gate: risk or FDR bound in (0, 1) (default --alpha); route: budget in cents
                     per query (default: stage 1 always, stage 2 half the time)
  --delta D          gate risk_high_probability: failure probability (default 0.1)
  --batch-size B     gate fdr: test queries per request, each request one Benjamini–Hochberg batch;
                     the report gives the realized FDR of each batch (default 1)
  --stage NAME=URL[@CENTS]  a cascade stage (judge, route): an OpenAI-compatible server such as
                     \`calibkit serve-model\`, its cost per call in cents (default 1, 2, …); repeat in order
`;

type Fail = (option: string, problem: string) => never;

export function parseQueryTypeOptions(v: { "query-type"?: string; guarantee?: string; target?: string; delta?: string; "batch-size"?: string; stage?: string[] }, fail: Fail): QueryTypeOptions {
  const queryType = v["query-type"];
  if (queryType !== undefined && !(QUERY_TYPE_NAMES as readonly string[]).includes(queryType)) fail("query-type", `must be one of ${QUERY_TYPE_NAMES.join(", ")}, got "${queryType}"`);
  if (v.guarantee !== undefined && !Object.values(GUARANTEES).some((g) => g.includes(v.guarantee!))) {
    fail("guarantee", `must be ${[...GUARANTEES.gate!, ...GUARANTEES.route!].join(", ")}, got "${v.guarantee}"`);
  }
  const target = v.target === undefined ? undefined : Number(v.target);
  if (target !== undefined && !(target > 0 && Number.isFinite(target))) fail("target", `must be a positive number, got "${v.target}"`);
  const delta = v.delta === undefined ? undefined : Number(v.delta);
  if (delta !== undefined && !(delta > 0 && delta < 1)) fail("delta", `must be a number strictly between 0 and 1, got "${v.delta}"`);
  const batchSize = v["batch-size"] === undefined ? undefined : Number(v["batch-size"]);
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize >= 1)) fail("batch-size", `must be an integer ≥ 1, got "${v["batch-size"]}"`);
  const stages = (v.stage ?? []).map((raw, i): StageOption => {
    const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)=(https?:\/\/[^@\s]+)(?:@([0-9.]+))?$/.exec(raw);
    if (!m) fail("stage", `must be NAME=URL[@CENTS] (e.g. small=http://127.0.0.1:8001@1), got "${raw}"`);
    const cost = m![3] === undefined ? i + 1 : Number(m![3]);
    if (!(cost >= 0 && Number.isFinite(cost))) fail("stage", `the cost of "${m![1]}" must be a number ≥ 0, got "${m![3]}"`);
    if (m![1] === "human_queue") fail("stage", "human_queue is added at the end of a judge cascade by itself");
    return { name: m![1]!, url: m![2]!, costPerCall: cost };
  });
  if (new Set(stages.map((s) => s.name)).size !== stages.length) fail("stage", "stage names must be distinct");
  return { queryType: queryType as QueryTypeName | undefined, guarantee: v.guarantee, target, delta, ...(batchSize !== undefined ? { batchSize } : {}), stages };
}
