// The resources whose fields the spec does not show (labelling job, backends list items, guarantee object) are
// read leniently from a loopback server: a minimal body is accepted, an extended one keeps its unknown fields,
// a known field of the wrong type is still named. Resources whose fields the spec shows stay strict.
import { afterEach, describe, expect, it } from "vitest";
import { EvaluationClient, ResponseFormatError } from "../../src/index.js";
import { evaluateBody, evaluateRequest, profileBody } from "./fixtures.js";
import { script, startServer, type Reply, type ScriptedServer } from "./scriptedServer.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(...replies: Reply[]): Promise<EvaluationClient> {
  server = await startServer(script(...replies));
  return new EvaluationClient({ baseUrl: `${server.origin}/api/v1`, retry: false });
}

const judgeRequest = { judge: "local-judge", unlabelled_examples: [{ context: "a" }], human_labelled_sample_size: 0 };

async function formatError(promise: Promise<unknown>): Promise<ResponseFormatError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ResponseFormatError);
  return error as ResponseFormatError;
}

describe("lenient resources", () => {
  it("labelling job: the minimal body a third-party service answers is accepted (was '`profile` is required')", async () => {
    const client = await clientFor({ status: 202, body: { id: "j1", status: "queued" } }, { status: 200, body: {} });
    const job = await client.labelWithJudge("tickets", judgeRequest);
    expect(job).toMatchObject({ id: "j1", status: "queued" });
    expect(job.profile).toBeUndefined();
    // Even an empty object: the spec shows no field, so none is required.
    expect(await client.getLabellingJob("tickets", "j1")).toEqual({ request_id: undefined });
  });

  it("labelling job: an extended body keeps its unknown fields and its own state names", async () => {
    const extended = { id: "j2", profile: "tickets", status: "in_progress", progress: { done: 3, of: 9 }, eta_seconds: 12, labelled: 3 };
    const client = await clientFor({ status: 200, body: extended });
    const job = await client.getLabellingJob("tickets", "j2");
    expect(job).toMatchObject(extended);
    expect((job as Record<string, unknown>).progress).toEqual({ done: 3, of: 9 });
  });

  it("labelling job: a known field of the wrong type is named", async () => {
    const client = await clientFor({ status: 200, body: { id: "j3", labelled: "three" } });
    const error = await formatError(client.getLabellingJob("tickets", "j3"));
    expect(error.issues.map((i) => i.field)).toEqual(["labelled"]);
  });

  it("backends list: minimal items, extended items, and an item field of the wrong type", async () => {
    const extended = { name: "gpt", provider: "openai", model: "gpt-x", access_level: "L1", region: "eu", latency_ms: 80 };
    const client = await clientFor(
      { status: 200, body: { backends: [{}, { name: "only-a-name" }, extended] } },
      { status: 200, body: { backends: [{ name: "x", access_level: "L7" }] } },
      { status: 200, body: { items: [] } },
    );
    const list = await client.listBackends();
    expect(list.backends).toHaveLength(3);
    expect(list.backends[1]).toEqual({ name: "only-a-name" });
    expect(list.backends[2]).toMatchObject({ region: "eu", latency_ms: 80, access_level: "L1" });
    expect((await formatError(client.listBackends())).issues.map((i) => i.field)).toEqual(["backends.0.access_level"]);
    // `backends` itself is what the spec shows: required.
    expect((await formatError(client.listBackends())).issues.map((i) => i.field)).toEqual(["backends"]);
  });

  it("guarantee: an empty object and one with fields of its own are accepted; the answer's shown fields stay strict", async () => {
    const answer = evaluateBody.answers.q1;
    const client = await clientFor(
      { status: 200, body: { ...evaluateBody, answers: { q1: { ...answer, guarantee: {} } } } },
      { status: 200, body: { ...evaluateBody, answers: { q1: { ...answer, guarantee: { confidence: 0.9, note: "custom" } } } } },
      { status: 200, body: { ...evaluateBody, answers: { q1: { ...answer, guarantee: { kind: 7 } } } } },
      { status: 200, body: { ...evaluateBody, answers: { q1: { ...answer, guarantee: undefined } } } },
      { status: 200, body: { ...evaluateBody, answers: { q1: { ...answer, set: undefined } } } },
    );
    expect((await client.evaluate(evaluateRequest)).answers.q1!.guarantee).toEqual({});
    expect((await client.evaluate(evaluateRequest)).answers.q1!.guarantee).toEqual({ confidence: 0.9, note: "custom" });
    expect((await formatError(client.evaluate(evaluateRequest))).issues.map((i) => i.field)).toEqual(["answers.q1.guarantee.kind"]);
    // The spec shows that every answer has a guarantee, and which fields a set answer has: those stay required.
    expect((await formatError(client.evaluate(evaluateRequest))).issues.map((i) => i.field)).toContain("answers.q1.guarantee");
    expect((await formatError(client.evaluate(evaluateRequest))).issues.map((i) => i.field)).toContain("answers.q1.set");
  });

  it("a profile (fields shown by the spec) is still parsed strictly", async () => {
    const client = await clientFor({ status: 200, body: { ...profileBody, minimum_n: undefined } });
    expect((await formatError(client.getProfile("tickets"))).issues.map((i) => i.field)).toEqual(["minimum_n"]);
  });
});
