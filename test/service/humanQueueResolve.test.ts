// The human queue's resolve extension against the real embedded service on loopback: a judge query the request
// stage cannot decide goes to human_queue, a person answers it through the client, and the answer joins the
// profile as a labelled example (with the query's evidence); retries are idempotent, a different answer is a
// 409, an unknown item a 404, a malformed body a 422 naming the field.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluateRequestInput } from "../../src/api/index.js";
import { EvaluationClient } from "../../src/client/index.js";
import { startService, type RunningService } from "../../src/service/index.js";
import { CLIENT_BACKEND, lcg } from "./helpers.js";

let service: RunningService;
let dataDir: string;
let client: EvaluationClient;
const rand = lcg(15);
const candidates = { first: "The cat sat on the mat.", second: "The dog ran in the park." };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "calibkit-hq-"));
  service = await startService({ dataDir, log: () => undefined });
  client = new EvaluationClient({ baseUrl: service.baseUrl, retry: false });
  await client.createProfile({ name: "hq", backend: CLIENT_BACKEND, alpha: 0.1 });
  // Judgements that say little: at alpha 0.1 a 50/50 query gets both candidates in its set and escalates.
  await client.addExamples("hq", Array.from({ length: 60 }, () => {
    const p = 0.3 + 0.4 * rand();
    return { context: { candidates }, label: rand() < 0.5 ? "first" : "second", metadata: { evidence: { option_probabilities: { first: p, second: 1 - p } } } };
  }));
});
afterAll(async () => {
  await service?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const escalating: EvaluateRequestInput = {
  context: { candidates },
  backend: CLIENT_BACKEND,
  queries: { j: { type: "judge", instructions: "Which is nicer?", calibration_profile: "hq", evidence: { option_probabilities: { first: 0.5, second: 0.5 } }, cascade: [{ backend: "human_queue" }] } },
};

describe("POST /human-queue/{id}/resolve", () => {
  it("a person's answer to an escalated judge query becomes a labelled example of its profile", async () => {
    const res = await client.evaluate(escalating);
    const answer = res.answers.j as { winner: string | null; escalated_to: string | null; human_queue_item?: string };
    expect(answer).toMatchObject({ winner: null, escalated_to: "human_queue" });
    const id = answer.human_queue_item!;
    const pending = (await client.listHumanQueue()).items.find((i) => i.id === id)!;
    expect(pending).toMatchObject({ kind: "escalation", profile: "hq", query: "j", status: "pending" });

    const before = await client.getProfile("hq");
    const resolved = await client.resolveHumanQueueItem(id, { label: "second", note: "the dog one reads better" });
    expect(resolved).toMatchObject({ id, status: "resolved", resolution: { label: "second", example_added: true, profile_version: before.version + 1, note: "the dog one reads better" } });
    const after = await client.getProfile("hq");
    expect(after.n).toBe(before.n + 1);
    expect(after.version).toBe(before.version + 1);
    // The example carries the query's evidence, so it joins the request stage's calibration pool.
    const page = await fetch(`${service.baseUrl}/calibration-profiles/hq/examples?offset=${after.n - 1}`).then((r) => r.json()) as { examples: Record<string, unknown>[] };
    expect(page.examples[0]).toMatchObject({
      context: { candidates }, label: "second", source: "human",
      metadata: { human_queue_item: id, query: "j", evidence: { option_probabilities: { first: 0.5, second: 0.5 } } },
    });
    expect((await client.listHumanQueue()).items.find((i) => i.id === id)).toMatchObject({ status: "resolved" });

    // A retry answers the same resolution and adds nothing; another label is a conflict.
    expect(await client.resolveHumanQueueItem(id, { label: "second" })).toMatchObject({ resolution: { label: "second" } });
    expect((await client.getProfile("hq")).n).toBe(after.n);
    await expect(client.resolveHumanQueueItem(id, { label: "first" })).rejects.toMatchObject({ status: 409 });
  });

  it("resolves without adding an example when asked, and names what is wrong", async () => {
    const res = await client.evaluate(escalating);
    const id = (res.answers.j as { human_queue_item?: string }).human_queue_item!;
    const n = (await client.getProfile("hq")).n;
    expect(await client.resolveHumanQueueItem(id, { label: "first", add_example: false })).toMatchObject({ resolution: { example_added: false } });
    expect((await client.getProfile("hq")).n).toBe(n);
    await expect(client.resolveHumanQueueItem("hq_missing", { label: "first" })).rejects.toMatchObject({ status: 404 });
    const bad = await fetch(`${service.baseUrl}/human-queue/${id}/resolve`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ add_example: "yes" }) });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { field?: string }).field).toMatch(/^(label|add_example)$/);
  });

  it("a label that is not one of the candidates is refused at the example's label, and the item stays pending", async () => {
    const res = await client.evaluate(escalating);
    const id = (res.answers.j as { human_queue_item?: string }).human_queue_item!;
    await expect(client.resolveHumanQueueItem(id, { label: "third" })).rejects.toMatchObject({ status: 422 });
    expect((await client.listHumanQueue()).items.find((i) => i.id === id)).toMatchObject({ status: "pending" });
  });
});
