// The HTTP layer on a real loopback server, with handlers that misbehave: whatever a handler throws, rejects
// with or returns that cannot be written as JSON becomes an error response with a request id, the in-flight
// count (and so overload shedding) stays right, and the server keeps answering.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Authenticator } from "../../src/service/auth.js";
import { notFound } from "../../src/service/errors.js";
import { createHttpHandler } from "../../src/service/http/server.js";
import { Router } from "../../src/service/http/router.js";
import { LoadShedder, RateLimiter } from "../../src/service/rateLimit.js";

let server: Server;
let base: string;
const logged: string[] = [];
const shedder = new LoadShedder({ maxInFlight: 2, maxEventLoopLagMs: 10_000 });

beforeAll(async () => {
  const router = new Router()
    .add("GET", "/ok", () => ({ status: 200, body: { ok: true } }))
    .add("GET", "/later", async () => ({ status: 201, body: { later: true } }))
    .add("GET", "/throws", () => { throw notFound("nothing here"); })
    .add("GET", "/rejects", async () => { throw new Error("boom"); })
    .add("GET", "/bigint", () => ({ status: 200, body: { n: 1n } }))
    .add("GET", "/bigint-later", async () => ({ status: 200, body: { n: 2n } }))
    .add("POST", "/echo", (req) => ({ status: 200, body: { got: req.body } }));
  server = createServer(createHttpHandler({
    router, auth: new Authenticator([]), rateLimiter: new RateLimiter({ requestsPerSecond: 0, burst: 1 }), shedder,
    maxBodyBytes: 1024, log: (line) => logged.push(line),
  }));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  shedder.dispose();
  await new Promise((ok) => server.close(ok));
});

async function get(path: string, init?: RequestInit) {
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, id: res.headers.get("x-request-id"), body: (await res.json()) as Record<string, unknown> };
}

describe("the HTTP layer", () => {
  it("answers sync and async handlers with request_id last, equal to the header", async () => {
    const ok = await get("/ok", { headers: { "x-request-id": "abc-1" } });
    expect(ok).toEqual({ status: 200, id: "abc-1", body: { ok: true, request_id: "abc-1" } });
    const later = await get("/later");
    expect(later.status).toBe(201);
    expect(Object.keys(later.body)).toEqual(["later", "request_id"]);
    expect(later.body.request_id).toBe(later.id);
  });

  it("maps what handlers throw or reject with", async () => {
    expect(await get("/throws")).toMatchObject({ status: 404, body: { error: "not_found", message: "nothing here" } });
    const rejected = await get("/rejects");
    expect(rejected).toMatchObject({ status: 500, body: { error: "internal_error" } });
    expect(logged.some((l) => l.includes("boom"))).toBe(true);
  });

  it("turns a body that cannot be written as JSON into a 500, sync or async, and keeps serving", async () => {
    for (const path of ["/bigint", "/bigint-later"]) {
      const r = await get(path);
      expect(r.status).toBe(500);
      expect(r.body.request_id).toBe(r.id);
    }
    // Every request above left the in-flight count: with a limit of 2, these would otherwise be shed with 529.
    const after = await Promise.all([get("/ok"), get("/later")]);
    expect(after.map((r) => r.status)).toEqual([200, 201]);
  });

  it("reads bodies in several chunks and refuses bad JSON with 400", async () => {
    const big = { text: "x".repeat(900) };
    const echoed = await get("/echo", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(big) });
    expect(echoed.body.got).toEqual(big);
    const bad = await get("/echo", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(bad.status).toBe(400);
  });
});
