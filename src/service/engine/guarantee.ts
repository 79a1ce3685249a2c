// The guarantee object attached to every answer (docs/service.md): what holds, at which level, on how many
// calibration examples, by which method, from which profile version, for which Mondrian group and evidence level.
import { guaranteeWords, type Guarantee } from "../../api/index.js";
import type { QueryInput } from "./types.js";

export interface GuaranteeFields {
  kind: string;
  holds?: boolean;
  alpha?: number;
  target?: number;
  delta?: number;
  n: number;
  method: string;
  group?: string | undefined;
  reason?: string;
  /** True when the evidence probabilities were sample frequencies (L0). */
  estimated?: boolean;
}

export function guarantee(input: QueryInput, fields: GuaranteeFields): Guarantee {
  // One object literal with every field (undefined ones are left out by JSON.stringify): a single hidden
  // class on the hot path instead of one per combination of optional fields (the table's two come last).
  return {
    kind: fields.kind,
    holds: fields.holds ?? true,
    alpha: fields.alpha,
    target: fields.target,
    delta: fields.delta,
    n: fields.n,
    method: fields.estimated ? `${fields.method} (sample frequencies)` : fields.method,
    profile: input.profile.name,
    profile_version: input.profile.version,
    group: fields.group,
    evidence_level: input.level,
    reason: fields.reason,
    // The sentence and sense from the one table of guarantees (docs/guarantees.md).
    ...guaranteeWords(input.query.type, fields),
  };
}

/** A heuristic answer's guarantee: nothing holds, and `reason` says why (424). */
export function heuristicGuarantee(input: QueryInput, fields: Omit<GuaranteeFields, "kind" | "holds"> & { needed: number; wanted: string }): Guarantee {
  const where = fields.group !== undefined ? ` in group "${fields.group}"` : "";
  return guarantee(input, {
    ...fields,
    kind: "heuristic",
    holds: false,
    reason: fields.reason ?? `profile "${input.profile.name}" has ${fields.n} usable calibration examples${where} for this ${input.query.type} query; ${fields.wanted} needs at least ${fields.needed}`,
  });
}
