// The options of typed runs as the library takes them: the query type, the gate / route guarantee and the
// cascade stages (served by `calibkit serve-model`); and the check that a guarantee fits its query type.

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
  /** Gate fdr: test queries per request (one Benjamini–Hochberg batch each); default 1. */
  batchSize?: number | undefined;
  stages: StageOption[];
}

/** The guarantees each query type takes, the first being its default. */
export const GUARANTEES: Record<string, readonly string[]> = { gate: ["risk", "risk_high_probability", "fdr"], route: ["cost_budget", "accuracy"] };

type Fail = (option: string, problem: string) => never;

/** The guarantee option fits the query type (checked once the type is known). */
export function checkGuarantee(type: QueryTypeName, guarantee: string | undefined, target: number | undefined, fail: Fail, batchSize?: number): void {
  if (batchSize !== undefined && batchSize !== 1 && !(type === "gate" && guarantee === "fdr")) {
    fail("batch-size", "only gate queries with --guarantee fdr are decided across a batch");
  }
  if (guarantee !== undefined && !(GUARANTEES[type] ?? []).includes(guarantee)) {
    fail("guarantee", `${type} queries take ${(GUARANTEES[type] ?? ["no --guarantee"]).join(" or ")}, not "${guarantee}"`);
  }
  if (type === "gate" && target !== undefined && !(target < 1)) fail("target", `a gate's target is a risk in (0, 1), got ${target}`);
}
