// The HTTP layer on a real loopback server, with handlers that misbehave: whatever a handler throws, rejects
// with or returns that cannot be written as JSON becomes an error response with a request id, the in-flight
// count (and so overload shedding) stays right, and the server keeps answering.
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Authenticator } from "../../src/service/auth.js";
import { notFound } from "../../src/service/errors.js";
import { createHttpHandler } from "../../src/service/http/server.js";
import { Router } from "../../src/service/http/router.js";
import { LoadShedder, RateLimiter } from "../../src/service/rateLimit.js";

let server: Server;
let port = 0;
/** Resolvers of the /wait requests held open. */
const waiting: (() => void)[] = [];
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
    .add("POST", "/echo", (req) => ({ status: 200, body: { got: req.body } }))
    .add("GET", "/wait", () => new Promise((ok) => waiting.push(() => ok({ status: 200, body: { waited: true } }))))
    .add("GET", "/health", () => ({ status: 200, body: { status: "ok", profiles: 0 } }));
  server = createServer(createHttpHandler({
    router, auth: new Authenticator([]), rateLimiter: new RateLimiter({ requestsPerSecond: 0, burst: 1 }), shedder,
    maxBodyBytes: 1024, bodyTimeoutMs: 400, log: (line) => logged.push(line),
  }));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}/api/v1`;
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

  it("sheds with 529 Site Overloaded, never /health, and counts a request in flight only once its body is in", async () => {
    const held = [fetch(`${base}/wait`), fetch(`${base}/wait`)];
    while (waiting.length < 2) await new Promise((ok) => setTimeout(ok, 5));
    const shed = await fetch(`${base}/ok`);
    expect(shed.status).toBe(529);
    expect(shed.statusText).toBe("Site Overloaded");
    expect(shed.headers.get("retry-after")).toBe("1");
    expect((await fetch(`${base}/health`)).status).toBe(200);
    waiting.splice(0).forEach((ok) => ok());
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);

    // Three requests whose bodies are still arriving hold no place: the limit of 2 still admits a GET.
    const sockets = await Promise.all([0, 1, 2].map(() => partialPost()));
    expect((await fetch(`${base}/ok`)).status).toBe(200);
    // Bodies have a deadline of their own (bodyTimeoutMs 400): 408 and a closed connection.
    const answers = await Promise.all(sockets.map((s) => s.answer));
    for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 408 [^\r]*\r\n[\s\S]*"error":"request_timeout"/);
  });
});

/** A POST that sends its headers and part of its body, then nothing; `answer` is what the server sent back. */
async function partialPost(): Promise<{ answer: Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((ok) => socket.once("connect", () => ok()));
  socket.write("POST /api/v1/echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"a\":");
  let text = "";
  socket.on("data", (d: Buffer) => { text += d.toString(); });
  return { answer: new Promise((ok) => socket.once("close", () => ok(text))) };
}
