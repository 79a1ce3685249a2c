// One table of guarantees (issue 29): docs/guarantees.md holds exactly the table of src/api/guarantees.ts, every
// guarantee kind of the wire format has its row, and each query type's printed guarantee text — the typed runs'
// line and report, the set / interval run's line and report, a service answer's `statement` — is the table's
// sentence; no other source file writes a guarantee in words.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GUARANTEE_KINDS, GUARANTEE_TABLE, QUERY_TYPES, guaranteeRow, guaranteeStatement, guaranteeTableMarkdown, guaranteeWords, type Answer } from "../../src/api/index.js";
import { escapeHtml } from "../../src/report/index.js";
import { pageOf } from "../../src/report/html.js";
import { beliefDriver, gateDriver } from "../../src/run/queryTypes/beliefGate.js";
import { claimDriver } from "../../src/run/queryTypes/claim.js";
import { judgeDriver } from "../../src/run/queryTypes/judge.js";
import { routeDriver } from "../../src/run/queryTypes/route.js";
import type { Prepared, SummaryContext } from "../../src/run/queryTypes/types.js";
import { sampleSummary } from "../report/sampleSummary.js";

const REPO = join(import.meta.dirname, "../..");

describe("the table of guarantees", () => {
  it("docs/guarantees.md holds the code's table, byte for byte", () => {
    const doc = readFileSync(join(REPO, "docs/guarantees.md"), "utf8");
    const at = doc.indexOf("<!-- the table: guaranteeTableMarkdown() of src/api/guarantees.ts -->\n");
    const end = doc.indexOf("\n<!-- end of the table -->");
    expect(at).toBeGreaterThan(0);
    expect(doc.slice(doc.indexOf("\n", at) + 1, end)).toBe(guaranteeTableMarkdown());
  });

  it("has a row for every guarantee kind and a heuristic row for every query type; sentences fill in the values", () => {
    for (const kind of GUARANTEE_KINDS) expect(GUARANTEE_TABLE.some((r) => r.kind === kind), kind).toBe(true);
    for (const type of QUERY_TYPES) expect(guaranteeRow(type, "heuristic"), type).toBeDefined();
    expect(guaranteeStatement("gate", "risk", { target: 0.1 })).toMatch(/^P\(auto_approve and fail\) .*≤ target = 0\.1 in expectation over the calibration examples and the test query; this is not P\(fail \| auto_approve\)/);
    expect(guaranteeStatement("gate", "risk_high_probability", { target: 0.1, delta: 0.1 })).toMatch(/≤ target = 0\.1 with probability ≥ 1 − δ = 0\.9 over the calibration examples/);
    expect(guaranteeStatement("set", "coverage", { alpha: 0.7 })).toMatch(/≥ 1 − α = 0\.3 as a probability/);
    expect(guaranteeStatement("belief", "calibration")).toMatch(/need not lie in \[p0, p1\]/);
    expect(guaranteeStatement("belief", "calibration")).not.toMatch(/both calibrated/);
    expect(guaranteeWords("gate", { kind: "risk", target: 0.1 }).sense).toBe("in_expectation");
    expect(guaranteeWords("gate", { kind: "risk_high_probability", target: 0.1, delta: 0.05 }).sense).toBe("high_probability");
  });

  it("each typed run's printed guarantee is the table's sentence", () => {
    const ctx = (over: Partial<SummaryContext>): SummaryContext => ({ alpha: 0.2, guarantee: undefined, target: undefined, delta: undefined, batchSize: 1, stages: [{ name: "a", url: "http://x", costPerCall: 1, maxTokens: 4, adapter: undefined as never }], calibrationN: 50, calibration: [], ...over });
    const one = (truth: unknown, answer: Record<string, unknown>) => [{ prepared: { truth } as unknown as Prepared, answer: answer as unknown as Answer }];
    expect(beliefDriver.summarise(one("yes", { type: "belief", probability: 0.6, venn_abers: [0.5, 0.7] }), ctx({})).guarantee).toBe(guaranteeStatement("belief", "calibration"));
    for (const g of ["risk", "risk_high_probability", "fdr"] as const) {
      const s = gateDriver.summarise(one("pass", { type: "gate", decision: "auto_approve" }), ctx({ guarantee: g, target: 0.1, delta: 0.05 }));
      expect(s.guarantee).toBe(guaranteeStatement("gate", g, { target: 0.1, ...(g === "risk_high_probability" ? { delta: 0.05 } : {}) }));
    }
    expect(claimDriver.summarise(one([{ text: "a", correct: true }], { type: "claim", retained_claims: [{ text: "a", score: 1, reason: "x" }], dropped_claims: [] }), ctx({})).guarantee)
      .toBe(guaranteeStatement("claim", "factuality", { alpha: 0.2 }));
    expect(judgeDriver.summarise(one("a", { type: "judge", winner: "a", escalated_to: null, stages: [{ stage: "request", probabilities: {}, set: ["a"] }] }), ctx({})).guarantee)
      .toBe(guaranteeStatement("judge", "coverage", { alpha: 0.2 }));
    for (const g of ["cost_budget", "accuracy"] as const) {
      const s = routeDriver.summarise(one("x", { type: "route", output: "x", served_by: "a", escalated: false, cost_cents: 1 }), ctx({ guarantee: g, target: 1.5 }));
      expect(s.guarantee).toBe(guaranteeStatement("route", g, g === "cost_budget" ? { target: 1.5, delta: 0.05 } : { alpha: 0.2, delta: 0.05 }));
    }
  });

  it("a set run's report prints the table's sentence", () => {
    const s = sampleSummary();
    expect(pageOf(s, [])).toContain(escapeHtml(guaranteeStatement(s.queryType ?? "set", "coverage", { alpha: s.profile.alpha })));
  });

  it("no other source file writes a guarantee in words", () => {
    const phrases = [/risk of auto-approved/, /lies within \[p0, p1\], both/, /of auto-approved fails ≤/, /with probability ≥ \$\{/, /holds the better candidate with probability/, /every retained claim is true with probability/];
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith(".ts") && !p.endsWith("api/guarantees.ts")) files.push(p);
      }
    };
    walk(join(REPO, "src"));
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      for (const p of phrases) expect(p.test(text), `${f} matches ${p}`).toBe(false);
    }
  });
});
