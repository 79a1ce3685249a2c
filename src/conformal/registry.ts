// The method names of the evaluation spec, resolved case-insensitively to the engine's canonical names.

import { ConformalError } from "./errors.js";

export type SetMethod = "LAC" | "APS" | "RAPS";
export type IntervalMethod = "CQR" | "ordinal-aps";
export type MethodName = SetMethod | IntervalMethod;

export interface MethodInfo {
  readonly name: MethodName;
  readonly type: "set" | "interval";
  /** Whether the method draws one uniform per example when `randomized` is left at its default. */
  readonly randomizedByDefault: boolean;
  readonly paper: string;
}

export const METHODS: Readonly<Record<MethodName, MethodInfo>> = Object.freeze({
  LAC: { name: "LAC", type: "set", randomizedByDefault: false, paper: "Sadinle, Lei & Wasserman 2019" },
  APS: { name: "APS", type: "set", randomizedByDefault: true, paper: "Romano, Sesia & Candès 2020" },
  RAPS: { name: "RAPS", type: "set", randomizedByDefault: true, paper: "Angelopoulos, Bates, Malik & Jordan 2021" },
  CQR: { name: "CQR", type: "interval", randomizedByDefault: false, paper: "Romano, Patterson & Candès 2019" },
  "ordinal-aps": { name: "ordinal-aps", type: "interval", randomizedByDefault: false, paper: "Lu et al. 2022" },
});

/** Canonical method for a spec name (any case: "lac", "Ordinal-APS"); `type` restricts the kind. */
export function resolveMethod(name: string, type?: "set" | "interval"): MethodInfo {
  const wanted = String(name).trim().toLowerCase();
  for (const info of Object.values(METHODS)) {
    if (info.name.toLowerCase() === wanted && (!type || info.type === type)) return info;
  }
  const known = Object.values(METHODS)
    .filter((m) => !type || m.type === type)
    .map((m) => m.name)
    .join(", ");
  throw new ConformalError("UNKNOWN_METHOD", `unknown ${type ?? ""} method "${name}"; known: ${known}`.replace("  ", " "), {
    field: "method",
  });
}
