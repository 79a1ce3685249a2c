// Typed runs (belief, gate, claim, judge, route): what picks the query type. The pipeline itself is loaded
// on demand (run/index.ts): it pulls in the inference engines and the service.
import type { Dataset } from "../../datasets/index.js";
import type { QueryTypeName } from "../queryTypeOptions.js";

export { TYPED_QUERIES, type TypedQuery } from "./types.js";

/** The query type a dataset kind calls for when `--query-type` is not given. */
export const DEFAULT_QUERY_TYPE: Record<Dataset["kind"], QueryTypeName> = {
  multiple_choice: "set", ordinal: "interval", yes_no: "belief", pass_fail: "gate", claims: "claim", pairwise: "judge", reference: "route",
  // Free-form answers are approved or not (issue 27); until the generation run exists, the gate refuses them by kind.
  generation: "gate",
};
