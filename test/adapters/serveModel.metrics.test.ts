// serve-model's GET /metrics: the Prometheus text format read back by a Prometheus parser — requests by route
// and status, tokens generated and the seconds spent on them (tokens/s), slots — behind the API key.
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, spawnCalibkit, type Spawned } from "../service/helpers.js";

const MODEL = `${REPO}../shared/models/stories260K.gguf`;
const KEY = "serve-model-metrics-key";
let server: Spawned;

beforeAll(async () => {
  server = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1", "--parallel", "2", "--api-key", KEY], 60_000);
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

describe("serve-model GET /metrics", () => {
  it("counts requests, tokens and generation time, and reports the slots", async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const completion = await fetch(`${server.url}/v1/completions`, {
      method: "POST", headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ model: "stories260K.gguf", prompt: "Once upon a time", max_tokens: 12, temperature: 0 }),
    });
    expect(completion.status).toBe(200);
    const used = ((await completion.json()) as { usage: { completion_tokens: number } }).usage.completion_tokens;
    const scraped = await fetch(`${server.url}/metrics`, { headers: auth });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = new Map(parsePrometheusTextFormat(await scraped.text()).map((f) => [f.name, f]));
    const value = (name: string) => Number(families.get(name)!.metrics[0]!.value);
    expect(value("calibkit_serve_model_completion_tokens_total")).toBe(used);
    expect(value("calibkit_serve_model_generation_seconds_total")).toBeGreaterThan(0);
    expect(value("calibkit_serve_model_slots")).toBe(2);
    expect(value("calibkit_serve_model_slots_busy")).toBe(0);
    const requests = families.get("calibkit_serve_model_requests_total")!.metrics;
    expect(requests.find((m) => m.labels?.route === "/v1/completions" && m.labels.status === "200")?.value).toBe("1");
    expect(requests.find((m) => m.labels?.route === "/metrics" && m.labels.status === "401")?.value).toBe("1");
    expect(families.get("calibkit_serve_model_request_duration_seconds")!.type).toBe("HISTOGRAM");
  });
});
