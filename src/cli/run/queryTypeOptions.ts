// The options of typed runs: `--query-type`, the gate / route guarantee (`--guarantee`, `--target`, `--delta`)
// and the cascade stages (`--stage NAME=URL[@CENTS]`, repeatable) served by `calibkit serve-model`.

export const QUERY_TYPE_NAMES = ["belief", "set", "interval", "gate", "claim", "judge", "route"] as const;
export type QueryTypeName = (typeof QUERY_TYPE_NAMES)[number];

export interface StageOption {
  name: string;
  url: string;
  /** Cents per call (default: the stage's position, 1, 2, …). */
  costPerCall: number;
}

export interface QueryTypeOptions {
  /** Default: from the dataset's kind. */
  queryType: QueryTypeName | undefined;
  guarantee: string | undefined;
  target: number | undefined;
  delta: number | undefined;
  stages: StageOption[];
}

export const QUERY_TYPE_USAGE = `  --query-type T     belief, set, interval, gate, claim, judge or route (default: from the dataset's
                     kind: yes/no → belief, multiple choice → set, ordinal → interval, pass/fail → gate,
                     claims → claim, pairwise → judge, reference → route)
  --guarantee G      gate: risk, risk_high_probability or fdr (default risk);
                     route: cost_budget or accuracy (default cost_budget)
  --target X         gate: risk or FDR bound in (0, 1) (default --alpha); route: budget in cents
                     per query (default: stage 1 always, stage 2 half the time)
  --delta D          gate risk_high_probability: failure probability (default 0.1)
  --stage NAME=URL[@CENTS]  a cascade stage (judge, route): an OpenAI-compatible server such as
                     \`calibkit serve-model\`, its cost per call in cents (default 1, 2, …); repeat in order
`;

const GUARANTEES: Record<string, readonly string[]> = { gate: ["risk", "risk_high_probability", "fdr"], route: ["cost_budget", "accuracy"] };

type Fail = (option: string, problem: string) => never;

export function parseQueryTypeOptions(v: { "query-type"?: string; guarantee?: string; target?: string; delta?: string; stage?: string[] }, fail: Fail): QueryTypeOptions {
  const queryType = v["query-type"];
  if (queryType !== undefined && !(QUERY_TYPE_NAMES as readonly string[]).includes(queryType)) fail("query-type", `must be one of ${QUERY_TYPE_NAMES.join(", ")}, got "${queryType}"`);
  if (v.guarantee !== undefined && !Object.values(GUARANTEES).some((g) => g.includes(v.guarantee!))) {
    fail("guarantee", `must be ${[...GUARANTEES.gate!, ...GUARANTEES.route!].join(", ")}, got "${v.guarantee}"`);
  }
  const target = v.target === undefined ? undefined : Number(v.target);
  if (target !== undefined && !(target > 0 && Number.isFinite(target))) fail("target", `must be a positive number, got "${v.target}"`);
  const delta = v.delta === undefined ? undefined : Number(v.delta);
  if (delta !== undefined && !(delta > 0 && delta < 1)) fail("delta", `must be a number strictly between 0 and 1, got "${v.delta}"`);
  const stages = (v.stage ?? []).map((raw, i): StageOption => {
    const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)=(https?:\/\/[^@\s]+)(?:@([0-9.]+))?$/.exec(raw);
    if (!m) fail("stage", `must be NAME=URL[@CENTS] (e.g. small=http://127.0.0.1:8001@1), got "${raw}"`);
    const cost = m![3] === undefined ? i + 1 : Number(m![3]);
    if (!(cost >= 0 && Number.isFinite(cost))) fail("stage", `the cost of "${m![1]}" must be a number ≥ 0, got "${m![3]}"`);
    if (m![1] === "human_queue") fail("stage", "human_queue is added at the end of a judge cascade by itself");
    return { name: m![1]!, url: m![2]!, costPerCall: cost };
  });
  if (new Set(stages.map((s) => s.name)).size !== stages.length) fail("stage", "stage names must be distinct");
  return { queryType: queryType as QueryTypeName | undefined, guarantee: v.guarantee, target, delta, stages };
}

/** The guarantee option fits the query type (checked once the type is known). */
export function checkGuarantee(type: QueryTypeName, guarantee: string | undefined, target: number | undefined, fail: Fail): void {
  if (guarantee !== undefined && !(GUARANTEES[type] ?? []).includes(guarantee)) {
    fail("guarantee", `${type} queries take ${(GUARANTEES[type] ?? ["no --guarantee"]).join(" or ")}, not "${guarantee}"`);
  }
  if (type === "gate" && target !== undefined && !(target < 1)) fail("target", `a gate's target is a risk in (0, 1), got ${target}`);
}
