// Every endpoint of the evaluation spec (and our two extensions) against a real loopback server.
import { afterEach, describe, expect, it } from "vitest";
import { EvaluationClient, ValidationError } from "../../src/index.js";
import { auditBody, alertBody, evaluateBody, evaluateRequest, example, jobBody, monitorBody, profileBody } from "./fixtures.js";
import { script, startServer, type Reply, type ScriptedServer } from "./scriptedServer.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(...replies: Reply[]): Promise<{ client: EvaluationClient; server: ScriptedServer }> {
  server = await startServer(script(...replies));
  return { client: new EvaluationClient({ baseUrl: `${server.origin}/api/v1/`, apiKey: "secret", retry: false }), server };
}

describe("EvaluationClient endpoints", () => {
  it("evaluate: POSTs the validated request with auth, JSON and an idempotency key, and parses the answers", async () => {
    const { client, server } = await clientFor({ status: 200, body: evaluateBody });
    const response = await client.evaluate(evaluateRequest);
    expect(response.answers.q1).toMatchObject({ type: "set", set: ["bug"] });
    expect(response.request_id).toBe("req-body");
    const [seen] = server.seen;
    expect(seen).toMatchObject({ method: "POST", url: "/api/v1/evaluate", json: evaluateRequest });
    expect(seen!.headers.authorization).toBe("Bearer secret");
    expect(seen!.headers["content-type"]).toBe("application/json");
    expect(seen!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("takes request_id from the x-request-id header when the body has none", async () => {
    const { client } = await clientFor({ status: 200, body: { ...evaluateBody, request_id: undefined }, headers: { "x-request-id": "req-hdr" } });
    expect((await client.evaluate(evaluateRequest)).request_id).toBe("req-hdr");
  });

  it("omits Authorization when no apiKey is given", async () => {
    server = await startServer(script({ status: 200, body: { backends: [] } }));
    await new EvaluationClient({ baseUrl: `${server.origin}/api/v1` }).listBackends();
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
  });

  it("createProfile, listProfiles, getProfile", async () => {
    const { client, server } = await clientFor(
      { status: 201, body: profileBody }, { status: 200, body: { profiles: [profileBody] } }, { status: 200, body: profileBody },
    );
    const created = await client.createProfile({ name: "tickets", backend: { provider: "openai", model: "gpt-x" }, method: "lac", alpha: 0.1 });
    expect(created.status).toBe("serving");
    expect((await client.listProfiles()).profiles).toHaveLength(1);
    expect((await client.getProfile("tickets")).name).toBe("tickets");
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /api/v1/calibration-profiles", "GET /api/v1/calibration-profiles", "GET /api/v1/calibration-profiles/tickets",
    ]);
    // Defaults are filled in and the method is normalised before sending.
    expect(server.seen[0]!.json).toMatchObject({ method: "LAC", strict_fingerprint: false });
    expect(server.seen[1]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("addExamples and audit send {examples}", async () => {
    const { client, server } = await clientFor({ status: 200, body: profileBody }, { status: 200, body: auditBody });
    expect((await client.addExamples("tickets", [example], { idempotencyKey: "key-1" })).n).toBe(120);
    expect((await client.audit("tickets", [example])).result).toBe("pass");
    expect(server.seen[0]).toMatchObject({ method: "POST", url: "/api/v1/calibration-profiles/tickets/examples", json: { examples: [example] } });
    expect(server.seen[0]!.headers["idempotency-key"]).toBe("key-1");
    expect(server.seen[1]).toMatchObject({ method: "POST", url: "/api/v1/calibration-profiles/tickets/audit", json: { examples: [example] } });
  });

  it("labelWithJudge and getLabellingJob", async () => {
    const { client, server } = await clientFor({ status: 202, body: jobBody }, { status: 200, body: { ...jobBody, status: "succeeded", labelled: 2 } });
    const job = await client.labelWithJudge("tickets", { judge: "local-judge", unlabelled_examples: [{ context: "a" }, { context: "b" }], human_labelled_sample_size: 1 });
    expect(job.status).toBe("queued");
    expect((await client.getLabellingJob("tickets", job.id!)).status).toBe("succeeded");
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /api/v1/calibration-profiles/tickets/label-with-judge", "GET /api/v1/calibration-profiles/tickets/label-with-judge/job-1",
    ]);
  });

  it("createMonitor, listMonitors, listAlerts", async () => {
    const { client, server } = await clientFor(
      { status: 201, body: monitorBody }, { status: 200, body: { monitors: [monitorBody] } }, { status: 200, body: { alerts: [alertBody] } },
    );
    expect((await client.createMonitor("tickets", { type: "coverage", false_alarm_rate: 0.01, labelled_sample_rate: 0.2 })).id).toBe("m1");
    expect((await client.listMonitors("tickets")).monitors[0]!.status).toBe("active");
    expect((await client.listAlerts("tickets", "m1")).alerts[0]!.e_value).toBe(120.5);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /api/v1/calibration-profiles/tickets/monitors", "GET /api/v1/calibration-profiles/tickets/monitors",
      "GET /api/v1/calibration-profiles/tickets/monitors/m1/alerts",
    ]);
    expect(server.seen[0]!.json).toEqual({ type: "coverage", false_alarm_rate: 0.01, labelled_sample_rate: 0.2, use_judge_pseudo_labels: false });
  });

  it("listBackends and listHumanQueue", async () => {
    const backends = { backends: [{ name: "local", provider: "vllm", model: "m", access_level: "L2", status: "ok" }] };
    const queue = { items: [{ id: "h1", profile: "tickets", kind: "escalation", context: "x", query: "q1", created_at: "2025-01-01T00:00:00Z" }] };
    const { client, server } = await clientFor({ status: 200, body: backends }, { status: 200, body: queue });
    expect((await client.listBackends()).backends[0]!.access_level).toBe("L2");
    expect((await client.listHumanQueue()).items[0]!.kind).toBe("escalation");
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(["GET /api/v1/backends", "GET /api/v1/human-queue"]);
  });

  it("rejects an invalid request before any network call, naming the field", async () => {
    const { client, server } = await clientFor({ status: 200, body: evaluateBody });
    const bad = { ...evaluateRequest, queries: { q1: { ...evaluateRequest.queries.q1, options: { bug: "only one" } } } };
    const error = await client.evaluate(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("queries.q1.options");
    await expect(client.getProfile("../etc")).rejects.toBeInstanceOf(ValidationError);
    await expect(client.addExamples("tickets", [])).rejects.toMatchObject({ field: "examples" });
    await expect(client.createMonitor("tickets", { type: "coverage", false_alarm_rate: 2 })).rejects.toMatchObject({ field: "false_alarm_rate" });
    expect(server.seen).toHaveLength(0);
  });
});
