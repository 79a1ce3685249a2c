// Fuzz: ≥ 10,000 malformed bodies (fast-check) over a keep-alive undici Pool to every POST endpoint. Every
// answer must be a 4xx JSON body with a message and a request id; never a 5xx; the process stays up.
import fc from "fast-check";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_BACKEND, startServer, type Spawned } from "./helpers.js";

const TOTAL = 10_200;
let server: Spawned & { data: string };
let pool: Pool;

beforeAll(async () => {
  server = await startServer({ config: { rate_limit: { requests_per_second: 0, burst: 1 }, max_body_bytes: 65_536 } });
  pool = new Pool(server.url, { connections: 8, pipelining: 1, keepAliveTimeout: 30_000 });
  const create = await pool.request({ path: "/api/v1/calibration-profiles", method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "fz", backend: CLIENT_BACKEND, alpha: 0.1 }) });
  await create.body.dump();
});
afterAll(async () => {
  await pool.close();
  expect(await server.stop()).toBe(0);
});

const PATHS = [
  "/api/v1/evaluate", "/api/v1/calibration-profiles", "/api/v1/calibration-profiles/fz/examples", "/api/v1/calibration-profiles/fz/audit",
  "/api/v1/calibration-profiles/fz/monitors", "/api/v1/calibration-profiles/fz/label-with-judge", "/api/v1/calibration-profiles/missing/examples",
];

const validEvaluate = {
  context: "c", backend: CLIENT_BACKEND,
  queries: { q: { type: "set", instructions: "i", options: { A: "a", B: "b" }, calibration_profile: "fz", evidence: { option_probabilities: { A: 0.5, B: 0.5 } } } },
};

/** A valid evaluate request with one field replaced by a value of the wrong kind. */
const brokenEvaluate = fc.record({
  path: fc.constantFrom(["queries"], ["backend"], ["backend", "provider"], ["backend", "access_level"], ["queries", "q", "type"],
    ["queries", "q", "options"], ["queries", "q", "evidence"], ["queries", "q", "evidence", "option_probabilities"], ["queries", "q", "calibration_profile"],
    ["queries", "q", "alpha"], ["queries", "q", "method"]),
  value: fc.oneof(fc.constant(null), fc.integer({ min: 2, max: 1e6 }), fc.constant(-1), fc.constant(true), fc.constant([]), fc.constant({}), fc.constant("?? not valid ??"), fc.constant({ A: 2, B: -1 })),
}).map(({ path, value }) => {
  const copy = structuredClone(validEvaluate) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1)!] = value;
  return { path: "/api/v1/evaluate", body: JSON.stringify(copy) };
});

/** Arbitrary JSON (never shaped like a valid request of these endpoints) to any endpoint. */
const arbitraryJson = fc.record({ path: fc.constantFrom(...PATHS), value: fc.jsonValue({ maxDepth: 4 }) })
  .map(({ path, value }) => ({ path, body: JSON.stringify(value) ?? "null" }));

/** Text that is not JSON at all, or JSON cut short. */
const notJson = fc.record({
  path: fc.constantFrom(...PATHS),
  text: fc.oneof(
    fc.string({ maxLength: 200 }).filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "").filter((s) => s.length > 2).map((s) => s.slice(0, -1)).filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }),
    fc.uint8Array({ maxLength: 120 }).map((b) => Buffer.from(b).toString("latin1")).filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }),
  ),
}).map(({ path, text }) => ({ path, body: text }));

/** Examples batches with one broken record. */
const brokenExamples = fc.record({
  n: fc.integer({ min: 0, max: 20 }),
  bad: fc.oneof(fc.constant({}), fc.constant({ context: "c" }), fc.constant({ label: "A" }), fc.constant({ context: 5, label: "A" }),
    fc.constant({ context: "c", label: "A", metadata: { evidence: { option_probabilities: { A: 3 } } } }), fc.constant({ context: "c", label: null }), fc.constant("just a string")),
}).map(({ n, bad }) => ({
  path: "/api/v1/calibration-profiles/fz/examples",
  body: JSON.stringify({ examples: [...Array.from({ length: n }, (_, i) => ({ context: `ok ${i}`, label: "A" })), bad] }),
}));

describe("fuzz", () => {
  it(`answers ${TOTAL} malformed bodies with a 4xx and a message, never a 5xx`, async () => {
    const cases = fc.sample(fc.oneof(brokenEvaluate, arbitraryJson, notJson, brokenExamples), { numRuns: TOTAL, seed: 20260 });
    expect(cases.length).toBeGreaterThanOrEqual(10_000);
    const failures: string[] = [];
    const counts = new Map<number, number>();
    let next = 0;
    const started = Date.now();
    const worker = async () => {
      while (next < cases.length && Date.now() - started < 60_000) {
        const c = cases[next++]!;
        const res = await pool.request({ path: c.path, method: "POST", headers: { "content-type": "application/json" }, body: c.body });
        const text = await res.body.text();
        counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
        let body: { message?: string; request_id?: string } = {};
        try { body = JSON.parse(text); } catch { /* reported below */ }
        if (res.statusCode < 400 || res.statusCode >= 500 || !body.message || body.request_id !== res.headers["x-request-id"]) {
          if (failures.length < 10) failures.push(`${res.statusCode} ${c.path} ${c.body.slice(0, 200)} → ${text.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(failures).toEqual([]);
    expect(next).toBe(cases.length);
    const health = await pool.request({ path: "/api/v1/health", method: "GET" });
    expect(health.statusCode).toBe(200);
    await health.body.dump();
    console.info(`fuzz: ${cases.length} bodies in ${Date.now() - started} ms; statuses ${JSON.stringify(Object.fromEntries(counts))}`);
  }, 80_000);
});
