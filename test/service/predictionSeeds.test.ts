// Black-box: a client that sends one test item per request, every query named "answer" (what most clients do),
// gets a fresh u for each randomized prediction, seeded by the response's own request_id. With the seed of the
// profile version and query name alone, one u served the whole test set, and APS's guarantee, which holds in
// expectation over u, did not hold of the realized coverage. Every answer is still reproduced by the client's
// cross-check from the response it got.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluateRequest, SetAnswer } from "../../src/api/index.js";
import { CrossChecker, EvaluationClient } from "../../src/client/index.js";
import { coverageBand } from "../../src/run/index.js";
import { CLIENT_BACKEND, lcg, OPTIONS, startServer, type Spawned } from "./helpers.js";

let server: Spawned & { data: string };
let client: EvaluationClient;
const rand = lcg(29);
const N = 300;
const M = 400;
const ALPHA = 0.1;
// A name whose old prediction seed, `aps-114@1/answer`, drew u = 0.9997 for every request: the realized coverage
// of the one-per-request test set then fell outside the band (any name is a valid test now; this one shows it).
const PROFILE = "aps-114";

/** A calibrated model: probabilities over A..D, the label drawn from them (coverage then depends on u). */
function example(i: number) {
  const raw = OPTIONS.map(() => Math.exp(4 * rand()));
  const sum = raw.reduce((a, b) => a + b, 0);
  const option_probabilities = Object.fromEntries(OPTIONS.map((o, j) => [o, raw[j]! / sum]));
  let u = rand();
  let label: string = OPTIONS[3];
  for (const o of OPTIONS) if ((u -= option_probabilities[o]!) < 0) { label = o; break; }
  return { context: `item ${i}`, label, metadata: { evidence: { option_probabilities } } };
}
const calibration = Array.from({ length: N }, (_, i) => example(i));
const test = Array.from({ length: M }, (_, i) => example(N + i));

const request = (p: Record<string, number>) => ({
  context: "x", backend: CLIENT_BACKEND,
  queries: {
    answer: {
      type: "set", instructions: "Pick", options: Object.fromEntries(OPTIONS.map((o) => [o, o])), calibration_profile: PROFILE,
      evidence: { option_probabilities: p },
    },
  },
}) as EvaluateRequest;

beforeAll(async () => {
  server = await startServer();
  client = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false });
  await client.createProfile({ name: PROFILE, backend: CLIENT_BACKEND, alpha: ALPHA, method: "APS", strict_fingerprint: false });
  await client.addExamples(PROFILE, calibration);
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("randomized predictions, one item per request under one query name", () => {
  it("cover 1 − α within the finite-sample band, each answer reproduced from its response", async () => {
    const profile = await client.getProfile(PROFILE);
    expect(profile.n).toBe(N);
    const checker = new CrossChecker(profile, calibration);
    let covered = 0;
    let empty = 0;
    const ids = new Set<string>();
    for (const item of test) {
      const req = request(item.metadata.evidence.option_probabilities);
      const res = await client.evaluate(req);
      ids.add(res.request_id!);
      const answer = res.answers.answer as SetAnswer;
      expect(answer.guarantee).toMatchObject({ kind: "coverage", holds: true, method: "APS", n: N });
      if (answer.set.includes(item.label)) covered++;
      if (answer.set.length === 0) empty++;
      expect(checker.check(req, res)).toEqual([]);
    }
    expect(ids.size).toBe(M);
    expect(checker.report.answers).toBe(M);
    const [lo, hi] = coverageBand(M, N, ALPHA);
    expect(covered / M).toBeGreaterThanOrEqual(lo);
    expect(covered / M).toBeLessThanOrEqual(hi);
    // Empty sets come from a large u on a confident item; with fresh u they are few.
    expect(empty / M).toBeLessThan(0.1);
  });

  it("draws a fresh u per request: the same evidence under the same name gets different sets", async () => {
    // An item whose set depends on u: its top option's own u·p decides whether the set is empty or not, and
    // the next option's whether it joins.
    const p = test[0]!.metadata.evidence.option_probabilities;
    const sets = new Map<string, number>();
    for (let r = 0; r < 200; r++) {
      const res = await client.evaluate(request(p));
      const key = (res.answers.answer as SetAnswer).set.join(",");
      sets.set(key, (sets.get(key) ?? 0) + 1);
    }
    expect(sets.size).toBeGreaterThanOrEqual(2);
    // No one set takes (nearly) every request, as it did when u was one value per profile version.
    expect(Math.max(...sets.values())).toBeLessThan(200);
  });

  it("keeps a client's own x-request-id as the seed, so a reply to the same id reproduces", async () => {
    const fixed = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false, headers: { "x-request-id": "trace-seed-1" } });
    const p = test[1]!.metadata.evidence.option_probabilities;
    const a = await fixed.evaluate(request(p));
    const b = await fixed.evaluate(request(p));
    expect(a.request_id).toBe("trace-seed-1");
    expect(JSON.stringify(b.answers)).toBe(JSON.stringify(a.answers));
  });
});
