// Every error status of the service, against real server processes: 400, 401, 404, 405, 413, 415, 422, 429,
// 502, 529, and the refusal to bind a non-loopback address without keys.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvaluationClient, UnauthorizedError, BackendError } from "../../src/client/index.js";
import { CLIENT_BACKEND, spawnCalibkit, startServer, tempDir, type Spawned } from "./helpers.js";

const KEY = "test-key-0123456789";
let open: Spawned & { data: string };
let guarded: Spawned & { data: string };

beforeAll(async () => {
  [open, guarded] = await Promise.all([
    startServer({ config: { max_body_bytes: 4096, overload: { max_in_flight: 2 }, backends: [{ name: "down", provider: "vllm", base_url: "http://127.0.0.1:9/v1", model: "m" }] } }),
    startServer({ config: { keys: [{ name: "ci", hash: "sha256:" + (await import("node:crypto")).createHash("sha256").update(KEY).digest("hex") }], rate_limit: { requests_per_second: 5, burst: 5 } } }),
  ]);
});
afterAll(async () => {
  await Promise.all([open.stop(), guarded.stop()]);
});

const post = (base: string, path: string, body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  fetch(`${base}/api/v1${path}`, { method: "POST", headers, body });

async function expectError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: string; message: string; request_id: string };
  expect(body.error).toBe(error);
  expect(body.message.length).toBeGreaterThan(10);
  expect(res.headers.get("x-request-id")).toBe(body.request_id);
  return body;
}

describe("error statuses", () => {
  it("400 for malformed JSON, 415 for another content type, 413 above the body limit", async () => {
    await expectError(await post(open.url, "/evaluate", "{nope"), 400, "malformed_json");
    await expectError(await post(open.url, "/evaluate", "{}", { "content-type": "text/plain" }), 415, "unsupported_media_type");
    await expectError(await post(open.url, "/evaluate", JSON.stringify({ context: "x".repeat(5000) })), 413, "payload_too_large");
  });

  it("404 for unknown paths and profiles, 405 for a wrong method", async () => {
    await expectError(await fetch(`${open.url}/api/v1/calibration-profiles/none`), 404, "not_found");
    await expectError(await fetch(`${open.url}/nowhere`), 404, "not_found");
    await expectError(await fetch(`${open.url}/api/v1/evaluate`), 405, "method_not_allowed");
  });

  it("echoes a well-formed x-request-id and replaces a malformed one", async () => {
    const echoed = await fetch(`${open.url}/api/v1/backends`, { headers: { "x-request-id": "trace-42" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-42");
    const replaced = await fetch(`${open.url}/api/v1/backends`, { headers: { "x-request-id": "bad id\u0001" } }).catch(() => undefined);
    if (replaced) expect(replaced.headers.get("x-request-id")).not.toBe("bad id\u0001");
  });

  it("401 for a missing or wrong key; the right key passes", async () => {
    const anonymous = new EvaluationClient({ baseUrl: `${guarded.url}/api/v1`, retry: false });
    await expect(anonymous.listProfiles()).rejects.toBeInstanceOf(UnauthorizedError);
    const wrong = new EvaluationClient({ baseUrl: `${guarded.url}/api/v1`, apiKey: "wrong-key-000000", retry: false });
    await expect(wrong.listProfiles()).rejects.toBeInstanceOf(UnauthorizedError);
    const right = new EvaluationClient({ baseUrl: `${guarded.url}/api/v1`, apiKey: KEY, retry: false });
    expect((await right.listProfiles()).profiles).toEqual([]);
  });

  it("429 with retry-after once a key exceeds its rate", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${guarded.url}/api/v1/backends`, { headers: { authorization: `Bearer ${KEY}` } });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
      await res.arrayBuffer();
    }
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it("529 with retry-after when more requests are in flight than allowed", async () => {
    await post(open.url, "/calibration-profiles", JSON.stringify({ name: "load", backend: CLIENT_BACKEND, alpha: 0.1 }));
    const body = JSON.stringify({ examples: Array.from({ length: 20 }, (_, i) => ({ context: `c${i}`, label: "A" })) });
    // Each body arrives in two parts 400 ms apart, so the 30 requests are in flight together whatever the store's speed.
    const slowBody = () => new ReadableStream<Uint8Array>({
      async start(controller) {
        const bytes = new TextEncoder().encode(body);
        controller.enqueue(bytes.subarray(0, 10));
        await new Promise((r) => setTimeout(r, 400));
        controller.enqueue(bytes.subarray(10));
        controller.close();
      },
    });
    const responses = await Promise.all(Array.from({ length: 30 }, () => fetch(`${open.url}/api/v1/calibration-profiles/load/examples`, {
      method: "POST", headers: { "content-type": "application/json" }, body: slowBody(), duplex: "half",
    } as RequestInit)));
    const shed = responses.filter((r) => r.status === 529);
    expect(shed.length).toBeGreaterThan(0);
    expect(Number(shed[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(responses.every((r) => r.status === 200 || r.status === 529)).toBe(true);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
  });

  it("502 when a configured backend cannot be reached; GET /backends says unreachable", async () => {
    const client = new EvaluationClient({ baseUrl: `${open.url}/api/v1`, retry: false });
    expect((await client.listBackends()).backends[0]).toMatchObject({ name: "down", access_level: null, status: "unreachable" });
    await post(open.url, "/calibration-profiles", JSON.stringify({ name: "r", backend: CLIENT_BACKEND, alpha: 0.1 }));
    const e = await client.evaluate({
      context: "x",
      queries: { r: { type: "route", calibration_profile: "r", guarantee: "accuracy", cascade: [{ backend: { provider: "vllm", name: "down" } }, { backend: "human_queue" }] } },
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BackendError);
  });

  it("a labelling job whose judge cannot be reached ends failed, with the reason", async () => {
    const client = new EvaluationClient({ baseUrl: `${open.url}/api/v1`, retry: false });
    await client.createProfile({ name: "jobs", backend: CLIENT_BACKEND, alpha: 0.1, strict_fingerprint: false });
    await client.addExamples("jobs", [{ context: "a", label: "yes" }, { context: "b", label: "no" }]);
    const job = await client.labelWithJudge("jobs", { judge: "down", unlabelled_examples: [{ context: "c" }], human_labelled_sample_size: 0 });
    let state = job;
    for (let i = 0; i < 100 && (state.status === "queued" || state.status === "running"); i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = await client.getLabellingJob("jobs", job.id!);
    }
    expect(state.status).toBe("failed");
    expect(state.error).toMatch(/down/);
    expect((await client.getProfile("jobs")).n).toBe(2);
  });

  it("refuses to start on a non-loopback address without keys", async () => {
    const err = await spawnCalibkit(["serve", "--host", "0.0.0.0", "--port", "0", "--data", await tempDir()]).catch((x: Error) => x);
    expect(String(err)).toMatch(/non-loopback address, without API keys/);
  });

  it("lets a second server share the data directory: the store does the locking, both see every write", async () => {
    await post(open.url, "/calibration-profiles", JSON.stringify({ name: "shared", backend: CLIENT_BACKEND, alpha: 0.1 }));
    await post(open.url, "/calibration-profiles/shared/examples", JSON.stringify({ examples: [{ context: "a", label: "yes" }] }));
    const second = await spawnCalibkit(["serve", "--port", "0", "--data", open.data]);
    try {
      const get = async (url: string) => {
        const { request_id: _, ...profile } = (await (await fetch(`${url}/api/v1/calibration-profiles/shared`)).json()) as { n: number; version: number; request_id: string };
        return profile;
      };
      const before = await get(open.url);
      expect(await get(second.url)).toEqual(before);
      const res = await fetch(`${second.url}/api/v1/calibration-profiles/shared/examples`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ examples: [{ context: "from the second", label: "yes" }] }),
      });
      expect(res.status).toBe(200);
      let seen = await get(open.url);
      for (let i = 0; i < 100 && seen.n === before.n; i++) {
        await new Promise((r) => setTimeout(r, 50));
        seen = await get(open.url);
      }
      expect(seen.n).toBe(before.n + 1);
      expect(seen.version).toBe(before.version + 1);
    } finally {
      await second.stop();
    }
  });
});
