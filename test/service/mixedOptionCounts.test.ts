// Black-box: a profile whose examples have 3, 4 and 5 options. `exact` (the default, and every profile stored
// before set_pooling) calibrates a query on the examples over its own option names only; `pooled` on every
// example, one calibration across option counts; `by_option_count` on those with as many options (a Mondrian
// split, named in the guarantee). Every answer, batch or alone, and the audit equal the local engine's
// (CrossChecker) for LAC, APS and RAPS.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluateRequest, ExampleRecord, SetAnswer } from "../../src/api/index.js";
import { checkAudit, CrossChecker, EvaluationClient, InsufficientCalibrationError } from "../../src/client/index.js";
import { CLIENT_BACKEND, lcg, startServer, type Spawned } from "./helpers.js";

let server: Spawned & { data: string };
let client: EvaluationClient;
const rand = lcg(28);
const NAMES = ["A", "B", "C", "D", "E"];

/** Probabilities over the first K names, the label drawn from them (a calibrated model). */
function draw(K: number): { p: Record<string, number>; label: string } {
  const raw = Array.from({ length: K }, () => Math.exp(3 * rand()));
  const sum = raw.reduce((a, b) => a + b, 0);
  const p = Object.fromEntries(raw.map((x, j) => [NAMES[j]!, x / sum]));
  let u = rand();
  let label = NAMES[K - 1]!;
  for (let j = 0; j < K; j++) if ((u -= p[NAMES[j]!]!) < 0) { label = NAMES[j]!; break; }
  return { p, label };
}
// K = 3, 4, 5 in turn, except that 5 is rare: 8 of 200 examples, too few for α = 0.1 on their own.
const countOf = (i: number) => (i % 25 === 0 ? 5 : i % 2 === 0 ? 3 : 4);
const examples: ExampleRecord[] = Array.from({ length: 200 }, (_, i) => {
  const { p, label } = draw(countOf(i));
  return { context: `item ${i}`, label, metadata: { evidence: { option_probabilities: p } } };
});
const audit: ExampleRecord[] = Array.from({ length: 60 }, (_, i) => {
  const { p, label } = draw(3 + (i % 3));
  return { context: `audit ${i}`, label, metadata: { evidence: { option_probabilities: p } } };
});
const query = (profile: string, K: number, extra: Record<string, unknown> = {}) => ({
  type: "set" as const, instructions: "Pick", options: Object.fromEntries(NAMES.slice(0, K).map((n) => [n, n])), calibration_profile: profile,
  evidence: { option_probabilities: draw(K).p }, ...extra,
});

async function answers(request: EvaluateRequest): Promise<Record<string, SetAnswer>> {
  const res = await client.evaluate(request).catch((e: unknown) => e);
  if (res instanceof InsufficientCalibrationError) return res.answers as Record<string, SetAnswer>;
  if (res instanceof Error) throw res;
  return (res as { answers: Record<string, SetAnswer> }).answers;
}

beforeAll(async () => {
  server = await startServer();
  // One x-request-id for every request: a query's u is seeded by it and the query name, so a query sent alone
  // draws the u it drew in the batch, and their answers can be compared byte for byte.
  client = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false, headers: { "x-request-id": "mixed-counts-seed" } });
  for (const [name, pooling] of [["exact", undefined], ["pooled", "pooled"], ["by-count", "by_option_count"]] as const) {
    for (const method of ["LAC", "APS", "RAPS"]) {
      await client.createProfile({ name: `${name}-${method}`, backend: CLIENT_BACKEND, alpha: 0.1, method, strict_fingerprint: false, ...(pooling ? { set_pooling: pooling } : {}) });
      await client.addExamples(`${name}-${method}`, examples);
    }
  }
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("set_pooling over examples of 3, 4 and 5 options", () => {
  it("exact (default): a 5-option query has only its 8 examples, a heuristic 424; pooled calibrates it on all 200", async () => {
    expect((await client.getProfile("exact-LAC")).set_pooling).toBe("exact");
    const q = query("exact-LAC", 5);
    const exact = await answers({ context: "x", backend: CLIENT_BACKEND, queries: { q } });
    expect(exact.q!.guarantee).toMatchObject({ kind: "heuristic", holds: false });
    expect(exact.q!.guarantee.reason).toMatch(/has 8 usable calibration examples/);
    const pooled = await answers({ context: "x", backend: CLIENT_BACKEND, queries: { q: { ...q, calibration_profile: "pooled-LAC" } } });
    expect(pooled.q!.guarantee).toMatchObject({ kind: "coverage", holds: true, n: 200, method: "LAC" });
    expect((await client.getProfile("pooled-LAC")).set_pooling).toBe("pooled");
  });

  it("by_option_count: a Mondrian group per count, named in the guarantee with its own n", async () => {
    const got = await answers({ context: "x", backend: CLIENT_BACKEND, queries: { three: query("by-count-LAC", 3), four: query("by-count-LAC", 4), five: query("by-count-LAC", 5) } });
    expect(got.three!.guarantee).toMatchObject({ kind: "group_coverage", group: "3 options", n: 96 });
    expect(got.four!.guarantee).toMatchObject({ kind: "group_coverage", group: "4 options", n: 96 });
    expect(got.five!.guarantee).toMatchObject({ kind: "heuristic", group: "5 options", n: 8 });
  });

  for (const method of ["LAC", "APS", "RAPS"]) {
    it(`${method}: every answer (queries of mixed counts in one request and alone) and the audit equal the local engine's`, async () => {
      for (const name of [`pooled-${method}`, `by-count-${method}`, `exact-${method}`]) {
        const profile = await client.getProfile(name);
        const checker = new CrossChecker(profile, examples);
        const queries = Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`q${k}`, query(name, 3 + (k % 2))]));
        const request = { context: "x", backend: CLIENT_BACKEND, queries } as EvaluateRequest;
        const together = await answers(request);
        expect(checker.check(request, { answers: together, request_id: "mixed-counts-seed" }), name).toEqual([]);
        for (const [k, q] of Object.entries(queries)) {
          const one = await answers({ context: "x", backend: CLIENT_BACKEND, queries: { [k]: q } } as EvaluateRequest);
          expect(JSON.stringify(one[k]), `${name} ${k}`).toBe(JSON.stringify(together[k]));
        }
        const result = await client.audit(name, audit);
        expect(checkAudit(checker, audit, 0.1, result), name).toEqual([]);
        if (!name.startsWith("exact")) expect(result.sample).toBeGreaterThan(30);
      }
    });
  }
});
