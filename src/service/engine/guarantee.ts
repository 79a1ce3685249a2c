// The guarantee object attached to every answer (docs/service.md): what holds, at which level, on how many
// calibration examples, by which method, from which profile version, for which Mondrian group and evidence level.
import type { Guarantee } from "../../api/index.js";
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
  const out: Guarantee = {
    kind: fields.kind,
    holds: fields.holds ?? true,
    n: fields.n,
    method: fields.estimated ? `${fields.method} (sample frequencies)` : fields.method,
    profile: input.profile.name,
    profile_version: input.profile.version,
  };
  if (fields.alpha !== undefined) out.alpha = fields.alpha;
  if (fields.target !== undefined) out.target = fields.target;
  if (fields.delta !== undefined) out.delta = fields.delta;
  if (fields.group !== undefined) out.group = fields.group;
  if (input.level !== undefined) out.evidence_level = input.level;
  if (fields.reason !== undefined) out.reason = fields.reason;
  return out;
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
