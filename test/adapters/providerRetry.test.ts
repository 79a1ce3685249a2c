// The retry policy shared by the gemini and bedrock adapters: which failures it retries, how long it waits.
import { createServer } from "node:net";
import { expect, it } from "vitest";
import { isConnectionError, ProviderHttpError, retryAfterMs, withRetries } from "../../src/adapters/providers/retry.js";

const headers = (h: Record<string, string>) => (name: string) => h[name];

it("reads retry-after-ms, retry-after in seconds and as an HTTP date", () => {
  expect(retryAfterMs(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
  expect(retryAfterMs(headers({ "retry-after": "2" }))).toBe(2000);
  const inFive = new Date(Date.now() + 5000).toUTCString();
  expect(retryAfterMs(headers({ "retry-after": inFive }))).toBeGreaterThan(3000);
  expect(retryAfterMs(headers({ "retry-after": "soon" }))).toBeUndefined();
  expect(retryAfterMs(headers({}))).toBeUndefined();
});

it("retries a refused connection with backoff, then fails naming the attempts", async () => {
  // A port that was just free: connecting to it is refused.
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, "127.0.0.1", ok));
  const { port } = probe.address() as { port: number };
  await new Promise((ok) => probe.close(ok));
  const at: number[] = [];
  const err = await withRetries("p", { maxRetries: 2, timeoutMs: 2000 }, async (signal) => {
    at.push(Date.now());
    return fetch(`http://127.0.0.1:${port}/`, { signal });
  }, (e) => ({ connection: isConnectionError(e) })).catch((e: Error) => e);
  expect(at).toHaveLength(3);
  expect(at[2]! - at[0]!).toBeGreaterThanOrEqual(0.75 * (500 + 1000));
  expect((err as Error).message).toMatch(/after 3 attempts/);
});

it("does not retry a refused request, and stops at once when the caller aborts", async () => {
  let n = 0;
  await expect(withRetries("p", { maxRetries: 3, timeoutMs: 1000 }, async () => {
    n++;
    throw new ProviderHttpError(401, undefined, "p answered 401: bad key");
  }, () => ({}))).rejects.toThrow(/^p answered 401: bad key$/);
  expect(n).toBe(1);
  const caller = new AbortController();
  const started = Date.now();
  setTimeout(() => caller.abort(new Error("caller gave up")), 100);
  await expect(withRetries("p", { maxRetries: 3, timeoutMs: 1000 }, async () => {
    throw new ProviderHttpError(503, undefined, "busy");
  }, () => ({}), caller.signal)).rejects.toThrow(/caller gave up/);
  expect(Date.now() - started).toBeLessThan(450);
});
