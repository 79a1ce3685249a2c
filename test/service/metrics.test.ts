// GET /metrics of a real `calibkit serve`: the Prometheus text format, read back by a Prometheus text parser —
// requests by route and status, latency, in flight, refusals, per-profile n and status, monitor e-values —
// behind the same key as the rest.
import { request } from "node:http";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_BACKEND, lcg, setExample, startServer, type Spawned } from "./helpers.js";

const KEY = "metrics-key-00001";
let server: Spawned & { data: string };

function call(method: string, path: string, options: { body?: unknown; key?: string | null; from?: string } = {}): Promise<{ status: number; type: string; text: string }> {
  const url = new URL(server.url);
  return new Promise((ok, fail) => {
    const headers: Record<string, string> = {};
    if (options.key !== null) headers.authorization = `Bearer ${options.key ?? KEY}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const req = request({ host: url.hostname, port: url.port, method, path, headers, localAddress: options.from ?? "127.0.0.1" }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => ok({ status: res.statusCode!, type: String(res.headers["content-type"]), text }));
    });
    req.on("error", fail);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

interface Family { name: string; type: string; metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }[] }

beforeAll(async () => {
  server = await startServer({ config: { keys: [KEY], failed_auth_per_minute: 3 } });
  const rand = lcg(3);
  await call("POST", "/api/v1/calibration-profiles", { body: { name: "cls", backend: CLIENT_BACKEND, method: "LAC", alpha: 0.2 } });
  await call("POST", "/api/v1/calibration-profiles/cls/examples", { body: { examples: Array.from({ length: 40 }, (_, i) => setExample(rand, i)) } });
  await call("POST", "/api/v1/calibration-profiles/cls/monitors", { body: { type: "coverage", false_alarm_rate: 0.05, labelled_sample_rate: 1 } });
  await call("POST", "/api/v1/calibration-profiles", { body: { name: "empty", backend: CLIENT_BACKEND, method: "LAC", alpha: 0.2 } });
  const evaluated = await call("POST", "/api/v1/evaluate", {
    body: { context: "x", backend: CLIENT_BACKEND, queries: { q: { type: "set", instructions: "Pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "cls", evidence: { option_probabilities: { A: 0.7, B: 0.2, C: 0.06, D: 0.04 } } } } },
  });
  expect(evaluated.status).toBe(200);
  // Refusals from another address: failed keys until it is throttled.
  for (let i = 0; i < 5; i++) await call("GET", "/api/v1/health", { key: `wrong-key-${i}`, from: "127.0.0.2" });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("GET /metrics", () => {
  it("needs the key like every other endpoint", async () => {
    expect((await call("GET", "/metrics", { key: null })).status).toBe(401);
  });

  it("answers the Prometheus text format, which a Prometheus parser reads", async () => {
    const scraped = await call("GET", "/metrics");
    expect(scraped.status).toBe(200);
    expect(scraped.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = new Map((parsePrometheusTextFormat(scraped.text) as Family[]).map((f) => [f.name, f]));
    const requests = families.get("calibkit_http_requests_total")!;
    expect(requests.type).toBe("COUNTER");
    const evaluate = requests.metrics.find((m) => m.labels?.route === "/api/v1/evaluate" && m.labels.status === "200");
    expect(Number(evaluate?.value)).toBe(1);
    // Routes are patterns: a profile name is never a label value of the request metrics.
    expect(requests.metrics.some((m) => m.labels?.route === "/api/v1/calibration-profiles/:name/examples")).toBe(true);
    expect(requests.metrics.some((m) => m.labels?.route?.includes("/cls/"))).toBe(false);
    const latency = families.get("calibkit_http_request_duration_seconds")!;
    expect(latency.type).toBe("HISTOGRAM");
    expect(latency.metrics.length).toBeGreaterThan(0);
    expect(latency.metrics.every((m) => m.buckets?.["+Inf"] !== undefined)).toBe(true);
    // The text itself, for the labels this parser leaves off histograms: one evaluate timed.
    expect(scraped.text).toMatch(/^calibkit_http_request_duration_seconds_count\{route="\/api\/v1\/evaluate",method="POST"\} 1$/m);
    expect(families.get("calibkit_http_requests_in_flight")!.type).toBe("GAUGE");
    const shed = families.get("calibkit_http_shed_total")!.metrics.find((m) => m.labels?.reason === "auth_throttled");
    expect(Number(shed?.value)).toBe(2);
    const n = families.get("calibkit_profile_examples")!.metrics;
    expect(n.find((m) => m.labels?.profile === "cls")?.value).toBe("40");
    expect(n.find((m) => m.labels?.profile === "empty")?.value).toBe("0");
    const status = families.get("calibkit_profile_status")!.metrics.filter((m) => m.value === "1");
    expect(Object.fromEntries(status.map((m) => [m.labels!.profile, m.labels!.status]))).toEqual({ cls: "serving", empty: "collecting" });
    const e = families.get("calibkit_monitor_e_value")!.metrics;
    expect(e).toHaveLength(1);
    expect(e[0]!.labels!.profile).toBe("cls");
    expect(Number(e[0]!.value)).toBeGreaterThan(0);
    expect(families.has("calibkit_process_cpu_seconds_total")).toBe(true);
  });
});
