// The report page of a typed run: every run has a figure (a gate had none), and the cross-check heading is never
// left over nothing (it stood empty when every answer agreed).
import { describe, expect, it } from "vitest";
import type { QueryRunSummary } from "../../src/report/querySummary.js";
import { queryPageOf } from "../../src/report/queryHtml.js";
import { sampleSummary } from "./sampleSummary.js";

function gateRun(crossCheck: Partial<QueryRunSummary["crossCheck"]> = {}): QueryRunSummary {
  const base = sampleSummary();
  return {
    calibkit: "0.1.0", createdAt: "2026-11-27T00:00:00.000Z", queryType: "gate", model: base.model, dataset: base.dataset, service: base.service,
    profile: { name: "pass-fail-gate", alpha: 0.2, n: 150, status: "serving", minimumN: 4, recommendedN: 400 }, stages: [], split: { calibration: 150, test: 150 },
    section: {
      guarantee: "risk of auto-approved fails ≤ 0.2, in expectation (conformal risk control)", quantity: "realized risk", value: 0.13, target: 0.2,
      band: [0.08, 0.29], bandNote: "binomial 99.9%", inBand: true, n: 150,
      rates: [{ name: "auto_approve rate", value: 0.6 }, { name: "escalate rate", value: 0.4 }, { name: "abstain rate", value: 0 }],
    },
    crossCheck: { answers: 150, fields: 300, unchecked: {}, uncheckedReasons: [], disagreements: [], ...crossCheck },
    timings: base.timings, totalSeconds: 12,
  };
}

describe("a typed run's report page", () => {
  it("draws a gate's realized risk in its band against the target", () => {
    const html = queryPageOf(gateRun());
    expect(html).toMatch(/<figure id="quantity-band"><svg[\s\S]*?target 0\.2[\s\S]*?<\/svg><\/figure>/);
  });

  it("says the cross-check agreed instead of leaving its heading empty", () => {
    const html = queryPageOf(gateRun());
    expect(html).toMatch(/<h2>Cross-check against the local conformal engine<\/h2>\n<p>All 150 answers \(300 fields\) were recomputed by the local conformal engine and agree/);
    const partly = queryPageOf(gateRun({ unchecked: { threshold: 3 } }));
    expect(partly).toMatch(/<p>No disagreement over 150 answers; 3 fields could not be checked\.<\/p>/);
  });
});
