// Black-box: a request carrying many set queries is predicted through the batch API (one call per shared
// calibration), and every answer is byte for byte the one the same query gets alone in its own request —
// randomized methods, Mondrian groups, an unseen group and a heuristic answer among them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvaluationClient, InsufficientCalibrationError } from "../../src/client/index.js";
import { CLIENT_BACKEND, lcg, setExample, startServer, type Spawned } from "./helpers.js";

let server: Spawned & { data: string };
let client: EvaluationClient;
const rand = lcg(7);

const setQuery = (evidence: Record<string, number>, extra: Record<string, unknown> = {}) => ({
  type: "set" as const, instructions: "Pick the class", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "many",
  evidence: { option_probabilities: evidence }, ...extra,
});
const randomProbs = () => {
  const raw = ["A", "B", "C", "D"].map(() => 0.02 + rand());
  const sum = raw.reduce((a, b) => a + b, 0);
  return Object.fromEntries(["A", "B", "C", "D"].map((n, j) => [n, raw[j]! / sum]));
};

/**
 * The answer to `query` sent alone, under the same name (a randomized answer is seeded by the request id and its
 * query's name; this client sends one fixed x-request-id, so alone and together draw the same u).
 */
async function alone(name: string, query: ReturnType<typeof setQuery>): Promise<unknown> {
  const res = await client.evaluate({ context: "x", backend: CLIENT_BACKEND, queries: { [name]: query } }).catch((e: unknown) => e);
  if (res instanceof InsufficientCalibrationError) return res.answers[name];
  if (res instanceof Error) throw res;
  return (res as { answers: Record<string, unknown> }).answers[name];
}

beforeAll(async () => {
  server = await startServer();
  client = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false, headers: { "x-request-id": "set-batch-seed" } });
  await client.createProfile({ name: "many", backend: CLIENT_BACKEND, alpha: 0.1, method: "APS", strict_fingerprint: false });
  await client.addExamples("many", Array.from({ length: 300 }, (_, i) => setExample(rand, i)));
  await client.createProfile({ name: "regions", backend: CLIENT_BACKEND, alpha: 0.2, method: "RAPS", group_by: "region", strict_fingerprint: false });
  await client.addExamples("regions", Array.from({ length: 260 }, (_, i) => setExample(rand, i, { region: i % 4 === 0 ? "us" : "eu" })));
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("set queries of one request, predicted together", () => {
  it("answers each as it is answered alone (APS, LAC, RAPS, groups, an unseen group), bytes included", async () => {
    const queries: Record<string, ReturnType<typeof setQuery>> = {};
    for (let k = 0; k < 24; k++) {
      const kind = k % 4;
      queries[`q${k}`] = kind === 0 ? setQuery(randomProbs())
        : kind === 1 ? setQuery(randomProbs(), { method: "LAC", alpha: 0.2 })
        : kind === 2 ? setQuery(randomProbs(), { calibration_profile: "regions", group_by: k % 3 === 0 ? "us" : "eu" })
        : setQuery(randomProbs(), { calibration_profile: "regions", group_by: k === 3 ? "mars" : "eu", method: "APS", alpha: 0.3 });
    }
    const res = await client.evaluate({ context: "x", backend: CLIENT_BACKEND, queries }).catch((e: unknown) => e);
    // "mars" has no examples: that answer is heuristic, so the request is a 424 carrying every answer.
    expect(res).toBeInstanceOf(InsufficientCalibrationError);
    const answers = (res as InsufficientCalibrationError).answers;
    expect(Object.keys(answers)).toEqual(Object.keys(queries));
    for (const [name, query] of Object.entries(queries)) {
      expect(JSON.stringify(answers[name]), name).toBe(JSON.stringify(await alone(name, query)));
    }
    expect((answers.q3 as { guarantee: { kind: string } }).guarantee.kind).toBe("heuristic");
    expect((answers.q0 as { guarantee: { kind: string } }).guarantee.kind).toBe("coverage");
  });
  it("gives each request the guarantee of its own evidence level and profile version, however the last one differed", async () => {
    // A plan keeps the guarantee it gave last: a request at another level, or after the profile grew, must not get it.
    const query = setQuery({ A: 0.4, B: 0.3, C: 0.2, D: 0.1 }, { method: "LAC" });
    const guaranteeAt = async (level: string) => {
      const res = await client.evaluate({ context: "x", backend: { ...CLIENT_BACKEND, access_level: level as "L1" }, queries: { a: query, b: query } });
      const { a, b } = res.answers as unknown as Record<"a" | "b", { guarantee: { evidence_level: string; n: number; profile_version: number } }>;
      expect(b.guarantee).toEqual(a.guarantee);
      return a.guarantee;
    };
    const first = await guaranteeAt("L1");
    expect(first.evidence_level).toBe("L1");
    expect((await guaranteeAt("L3")).evidence_level).toBe("L3");
    expect(await guaranteeAt("L1")).toEqual(first);
    await client.addExamples("many", Array.from({ length: 10 }, (_, i) => setExample(rand, 1000 + i)));
    const grown = await guaranteeAt("L1");
    expect(grown.n).toBe(first.n + 10);
    expect(grown.profile_version).toBeGreaterThan(first.profile_version);
  });
});
