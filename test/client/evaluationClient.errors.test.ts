// Every error status of spec section 7, and the failures around them, as typed errors.
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  AbortedError, BackendError, EvaluationClient, HttpError, InsufficientCalibrationError, NetworkError, OverloadedError,
  RateLimitError, ResponseFormatError, TimeoutError, UnauthorizedError, UnprocessableError,
} from "../../src/index.js";
import { evaluateBody, evaluateRequest } from "./fixtures.js";
import { script, startServer, type Reply, type ScriptedServer } from "./scriptedServer.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failWith(reply: Reply, options: { timeoutMs?: number; attemptTimeoutMs?: number } = {}): Promise<unknown> {
  server = await startServer(script(reply));
  const client = new EvaluationClient({ baseUrl: `${server.origin}/api/v1`, retry: false, ...options });
  return client.evaluate(evaluateRequest).then(() => expect.fail("should have failed"), (e: unknown) => e);
}

describe("EvaluationClient errors", () => {
  it("401 → UnauthorizedError with message and request id", async () => {
    const error = await failWith({ status: 401, body: { error: "unauthorized", message: "missing API key", request_id: "r401" } });
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ name: "UnauthorizedError", code: "UNAUTHORIZED", status: 401, requestId: "r401" });
    expect((error as Error).message).toContain("missing API key");
  });

  it("422 → UnprocessableError with field and every issue", async () => {
    const body = {
      error: "validation_failed", message: "`queries.q1.options` must have at least 2 options", field: "queries.q1.options",
      issues: [{ field: "queries.q1.options", message: "`queries.q1.options` must have at least 2 options" }, { field: "context", message: "`context` is required" }],
      request_id: "r422",
    };
    const error = await failWith({ status: 422, body });
    expect(error).toBeInstanceOf(UnprocessableError);
    expect(error).toMatchObject({ code: "UNPROCESSABLE", status: 422, field: "queries.q1.options", requestId: "r422" });
    expect((error as UnprocessableError).issues.map((i) => i.field)).toEqual(["queries.q1.options", "context"]);
  });

  it("422 reading the human text from `detail` and the request id from the header", async () => {
    const error = await failWith({ status: 422, body: { detail: "bad alpha", field: "alpha" }, headers: { "x-request-id": "rh" } });
    expect(error).toMatchObject({ field: "alpha", requestId: "rh", issues: [{ field: "alpha", message: "bad alpha" }] });
  });

  it("424 → InsufficientCalibrationError carrying the heuristic answers", async () => {
    const heuristic = { ...evaluateBody.answers.q1, guarantee: { kind: "heuristic", holds: false, reason: "n=3 < minimum_n=9" } };
    const body = { ...evaluateBody, answers: { q1: heuristic }, error: "insufficient_calibration", message: "profile tickets has 3 of 9 examples" };
    const error = await failWith({ status: 424, body });
    expect(error).toBeInstanceOf(InsufficientCalibrationError);
    const e = error as InsufficientCalibrationError;
    expect(e).toMatchObject({ code: "INSUFFICIENT_CALIBRATION", status: 424, requestId: "req-body" });
    expect(e.answers.q1!.guarantee.kind).toBe("heuristic");
    expect(e.response?.usage?.backend_tokens).toBe(42);
    expect(e.message).toContain("3 of 9");
  });

  it("429 → RateLimitError with retryAfterMs; 502 → BackendError; 529 → OverloadedError", async () => {
    expect(await failWith({ status: 429, body: { error: "rate_limited" }, headers: { "retry-after": "7" } })).toMatchObject({
      name: "RateLimitError", code: "RATE_LIMITED", status: 429, retryAfterMs: 7000,
    });
    await server!.close();
    const backend = await failWith({ status: 502, body: { error: "backend_failed", message: "reached L1, query needs L2" } });
    expect(backend).toBeInstanceOf(BackendError);
    expect((backend as BackendError).message).toContain("reached L1");
    await server!.close();
    expect(await failWith({ status: 529, raw: "busy" })).toBeInstanceOf(OverloadedError);
  });

  it("other statuses → HttpError with the status", async () => {
    const error = await failWith({ status: 404, body: { error: "not_found", message: "no profile tickets" } });
    expect(error).toBeInstanceOf(HttpError);
    expect(error).not.toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ name: "HttpError", code: "HTTP_ERROR", status: 404 });
  });

  it("a 200 that is not JSON, or misses the schema → ResponseFormatError naming the field", async () => {
    expect(await failWith({ status: 200, raw: "<html>ok</html>", headers: { "content-type": "text/html" } })).toBeInstanceOf(ResponseFormatError);
    await server!.close();
    const broken = { ...evaluateBody, answers: { q1: { ...evaluateBody.answers.q1, set: "bug" } } };
    const error = await failWith({ status: 200, body: broken });
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error).toMatchObject({ code: "RESPONSE_FORMAT", field: "answers.q1.set" });
  });

  it("a refused connection → NetworkError with undici's error as cause", async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const error = await new EvaluationClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, retry: false }).listBackends().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "NETWORK_ERROR" });
    expect((error as Error).cause).toBeDefined();
  });

  it("a slow answer → TimeoutError; an aborted call → AbortedError", async () => {
    const slow = await failWith({ status: 200, body: evaluateBody, delayMs: 2_000 }, { timeoutMs: 150 });
    expect(slow).toBeInstanceOf(TimeoutError);
    expect(slow).toMatchObject({ code: "TIMEOUT", timeoutMs: 150 });
    const perAttempt = await new EvaluationClient({ baseUrl: `${server!.origin}/api/v1`, retry: false, attemptTimeoutMs: 100 })
      .evaluate(evaluateRequest).catch((e: unknown) => e);
    expect(perAttempt).toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    const pending = new EvaluationClient({ baseUrl: `${server!.origin}/api/v1`, retry: false }).evaluate(evaluateRequest, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const aborted = await pending.catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(AbortedError);
    expect(aborted).toMatchObject({ code: "ABORTED" });
  });
});
