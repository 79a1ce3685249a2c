// The exit status of a finished `calibkit run` (docs/run.md): a disagreement with the local engine is a
// failure (1); a failed audit is its own status (3), since the run itself worked but the guarantee did
// not hold on held-out data, unless --allow-audit-fail accepts it. 2 is bad options; 130/143 a signal.
import type { RunSummary } from "../../report/index.js";

export const EXIT = { ok: 0, failure: 1, options: 2, auditFailed: 3 } as const;

export function exitCodeOf(s: RunSummary, allowAuditFail: boolean): number {
  if (s.crossCheck.disagreements.length > 0) return EXIT.failure;
  if (s.audit.result === "fail" && !allowAuditFail) return EXIT.auditFailed;
  return EXIT.ok;
}
