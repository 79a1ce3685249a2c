// Retry timing through undici's retry interceptor against a real server, with an injected clock and random source
// so that every wait is checked exactly; one test uses the real clock to see the wait happen on the wire.
import { afterEach, describe, expect, it } from "vitest";
import {
  backoffCeilingMs, decideRetry, EvaluationClient, HttpError, OverloadedError, parseRetryAfter, RateLimitError,
  resolveRetryPolicy, type RetryPolicy,
} from "../../src/index.js";
import { evaluateRequest, fakeClock } from "./fixtures.js";
import { script, startServer, type Reply, type ScriptedServer } from "./scriptedServer.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ok: Reply = { status: 200, body: { backends: [] } };

async function run(replies: Reply[], retry: RetryPolicy): Promise<{ result: unknown; server: ScriptedServer }> {
  server = await startServer(script(...replies));
  const client = new EvaluationClient({ baseUrl: `${server.origin}/api/v1`, retry });
  const result = await client.listBackends().catch((e: unknown) => e);
  return { result, server };
}

function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe("retry policy (pure)", () => {
  it("parses retry-after as seconds or as an HTTP date", () => {
    const now = Date.parse("2025-03-01T12:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Sat, 01 Mar 2025 12:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Sat, 01 Mar 2025 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("the backoff ceiling doubles from the base and stops at the cap", () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
    expect([0, 1, 2, 3, 4, 10].map((k) => backoffCeilingMs(policy, k))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it("full jitter spans [0, ceiling) across random sources", () => {
    for (const r of [0, 0.3, 0.999999]) {
      const policy = resolveRetryPolicy({ baseDelayMs: 100, random: () => r, clock: fakeClock().clock });
      for (let attempt = 1; attempt <= 4; attempt++) {
        const d = decideRetry(policy, { status: 502, attempt, startedAt: policy.clock.now() });
        expect(d.retry).toBe(true);
        expect(d.delayMs).toBeCloseTo(r * backoffCeilingMs(policy, attempt - 1), 9);
      }
    }
  });

  it("refuses bad options", () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(RangeError);
    expect(() => resolveRetryPolicy({ baseDelayMs: Number.NaN })).toThrow(RangeError);
  });
});

describe("EvaluationClient retries over HTTP", () => {
  it("retries 429, 502 and 529 with full-jitter waits random() · min(max, base · 2^k), on every method", async () => {
    const clock = fakeClock();
    const { result, server } = await run(
      [{ status: 429 }, { status: 502 }, { status: 529 }, ok],
      { baseDelayMs: 100, maxDelayMs: 250, random: sequence(0.5, 0.25, 0.9), clock: clock.clock },
    );
    expect(result).toEqual({ backends: [], request_id: undefined });
    expect(server.seen).toHaveLength(4);
    expect(clock.sleeps).toEqual([0.5 * 100, 0.25 * 200, 0.9 * 250]);
  });

  it("retries a POST with the same body and the same Idempotency-Key", async () => {
    const clock = fakeClock();
    server = await startServer(script({ status: 502 }, { status: 200, body: { answers: {}, warnings: [] } }));
    const client = new EvaluationClient({ baseUrl: `${server.origin}/api/v1`, retry: { random: () => 0, clock: clock.clock } });
    await client.evaluate(evaluateRequest);
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.body).toBe(server.seen[0]!.body);
    expect(server.seen[1]!.headers["idempotency-key"]).toBe(server.seen[0]!.headers["idempotency-key"]);
  });

  it("honours retry-after in seconds and as an HTTP date instead of the backoff", async () => {
    const clock = fakeClock();
    // The date is read against the clock at the second answer, 2 s after the start (the first wait).
    const date = new Date(clock.clock.now() + 6000).toUTCString();
    const { server } = await run(
      [{ status: 429, headers: { "retry-after": "2" } }, { status: 529, headers: { "retry-after": date } }, ok],
      { baseDelayMs: 10, random: () => 0.5, clock: clock.clock },
    );
    expect(server.seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([2000, 4000]);
  });

  it("honours retry-after on the real clock: the retry arrives about a second later", async () => {
    const { result, server } = await run([{ status: 429, headers: { "retry-after": "1" } }, ok], { random: () => 0 });
    expect(result).toMatchObject({ backends: [] });
    const gap = server.seen[1]!.at - server.seen[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(3000);
  });

  it.each([400, 401, 403, 404, 409, 422, 424, 500, 501, 503, 504])("does not retry %i", async (status) => {
    const clock = fakeClock();
    const { result, server } = await run([{ status, body: { error: "x" } }, ok], { clock: clock.clock });
    expect(result).toBeInstanceOf(Error);
    expect(result).toMatchObject({ status });
    expect(server.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("stops after maxAttempts and reports the last answer", async () => {
    const clock = fakeClock();
    const { result, server } = await run(
      [{ status: 529, body: { error: "overloaded", message: "still busy" } }],
      { maxAttempts: 3, baseDelayMs: 100, random: () => 1, clock: clock.clock },
    );
    expect(server.seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([100, 200]);
    expect(result).toBeInstanceOf(OverloadedError);
    expect(result).toMatchObject({ attempts: 3 });
    expect((result as Error).message).toContain("still busy");
  });

  it("gives up when a retry-after exceeds the remaining time budget", async () => {
    const clock = fakeClock();
    const { result, server } = await run(
      [{ status: 429, headers: { "retry-after": "61" } }, ok], { maxElapsedMs: 60_000, clock: clock.clock },
    );
    expect(server.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(result).toBeInstanceOf(RateLimitError);
    expect(result).toMatchObject({ retryAfterMs: 61_000 });
  });

  it("stops when the backoff would end past the total time budget", async () => {
    const clock = fakeClock();
    // Each wait is the full ceiling 1000, 2000, 4000 ms; the budget of 5000 ms allows the first two (3000 ms).
    const { result, server } = await run(
      [{ status: 502 }], { maxAttempts: 10, baseDelayMs: 1000, maxElapsedMs: 5000, random: () => 1, clock: clock.clock },
    );
    expect(clock.sleeps).toEqual([1000, 2000]);
    expect(server.seen).toHaveLength(3);
    expect(result).toBeInstanceOf(HttpError);
    expect((result as Error).message).toMatch(/time budget/);
  });

  it("`retry: false` makes a single attempt", async () => {
    server = await startServer(script({ status: 429 }, ok));
    const error = await new EvaluationClient({ baseUrl: `${server.origin}/api/v1`, retry: false }).listBackends().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.seen).toHaveLength(1);
  });

  it("an abort during a backoff wait ends the call at once", async () => {
    server = await startServer(script({ status: 529 }));
    const controller = new AbortController();
    const started = performance.now();
    const pending = new EvaluationClient({ baseUrl: `${server.origin}/api/v1`, retry: { baseDelayMs: 10_000, random: () => 1 } })
      .listBackends({ signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.seen).toHaveLength(1);
  });
});
