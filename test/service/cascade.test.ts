// Cascades against a real model: `calibkit serve-model` serves stories260K as an OpenAI-compatible endpoint;
// the service probes it (GET /backends), routes over two stages, escalates a judge from a model stage to the
// human queue, and runs a label-with-judge job to completion.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAICompatibleAdapter } from "../../src/adapters/index.js";
import { EvaluationClient } from "../../src/client/index.js";
import { stageGeneration, stagePrompt } from "../../src/service/index.js";
import { CLIENT_BACKEND, lcg, REPO, spawnCalibkit, startServer, type Spawned } from "./helpers.js";

const MODEL = join(process.env.CALIBKIT_MODELS_DIR ?? join(REPO, "../shared/models"), "stories260K.gguf");
let model: Spawned;
let server: Spawned & { data: string };
let client: EvaluationClient;
const rand = lcg(7);

beforeAll(async () => {
  model = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1"], 60_000);
  server = await startServer({
    config: {
      backends: [
        { name: "small", provider: "vllm", base_url: model.url, cost_cents_per_call: 0.1, cost_cents_per_1k_tokens: 0.01, max_tokens: 4 },
        { name: "large", provider: "vllm", base_url: model.url, cost_cents_per_call: 2, cost_cents_per_1k_tokens: 0.5, max_tokens: 8 },
      ],
    },
  });
  client = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await model?.stop();
});

describe("cascades over calibkit serve-model", () => {
  it("lists the configured backends with their probed access level", async () => {
    const { backends } = await client.listBackends();
    expect(backends.map((b) => b.name)).toEqual(["small", "large"]);
    for (const b of backends) expect(["L1", "L2"]).toContain(b.access_level);
  });

  it("routes over two stages, each answering when its calibrated confidence allows", async () => {
    await client.createProfile({ name: "route", backend: CLIENT_BACKEND, alpha: 0.3, strict_fingerprint: false });
    const examples = Array.from({ length: 150 }, (_, i) => {
      const c = rand();
      const small = rand() < c ? "correct" : "incorrect";
      return {
        context: `Once upon a time ${i}`,
        label: { stages: { small, large: "correct" } },
        // The first two leave their confidence to the service, which calls the stage on the context.
        metadata: i < 2 ? {} : { evidence: { stage_confidence: { small: c, large: 0.9 } } },
      };
    });
    await client.addExamples("route", examples);
    const res = await client.evaluate({
      context: "Once upon a time, there was a little girl",
      queries: {
        r: { type: "route", calibration_profile: "route", guarantee: "accuracy", alpha: 0.3, instructions: "Continue the story.",
          cascade: [{ backend: { provider: "vllm", name: "small" } }, { backend: { provider: "vllm", name: "large" } }] },
      },
    });
    const r = res.answers.r!;
    expect(r.type).toBe("route");
    if (r.type !== "route") throw new Error();
    expect(["small", "large"]).toContain(r.served_by);
    expect(typeof r.output).toBe("string");
    expect(r.cost_cents).toBeGreaterThan(0);
    expect(r.guarantee).toMatchObject({ kind: "accuracy", holds: true, alpha: 0.3, n: 150 });
    expect(res.usage!.backend_calls).toBeGreaterThanOrEqual(2);
    expect(res.usage!.backend_tokens).toBeGreaterThan(0);
  });

  it("counts a route stage's tokens from the usage its server reports, and prices them", async () => {
    await client.createProfile({ name: "tokens", backend: CLIENT_BACKEND, alpha: 0.3, strict_fingerprint: false });
    await client.addExamples("tokens", Array.from({ length: 40 }, (_, i) => ({
      context: `story ${i}`, label: { stages: { small: "correct" } }, metadata: { evidence: { stage_confidence: { small: 0.5 } } },
    })));
    const context = "Once upon a time, there was a little girl";
    const res = await client.evaluate({
      context,
      queries: { r: { type: "route", calibration_profile: "tokens", guarantee: "cost_budget", target_cents: 1, cascade: [{ backend: { provider: "vllm", name: "small" } }] } },
    });
    // The same stage call made here, through the same adapter code, tallies the server's reported usage.
    const adapter = await createOpenAICompatibleAdapter({ baseUrl: model.url });
    const expected = await stageGeneration(adapter, stagePrompt(undefined, context), 4);
    await adapter.dispose();
    expect(expected.tokens).toBeGreaterThan(0);
    expect(res.usage!.backend_tokens).toBe(expected.tokens);
    const r = res.answers.r as { cost_cents: number };
    expect(r.cost_cents).toBeCloseTo(0.1 + (0.01 * expected.tokens!) / 1000, 12);
  });

  it("escalates a judge from a model stage to the human queue when no stage is sure", async () => {
    await client.createProfile({ name: "jm", backend: CLIENT_BACKEND, alpha: 0.05, strict_fingerprint: false });
    // Calibration where even confident-looking judgements are often wrong: sets at alpha 0.05 stay ambiguous.
    // Each model stage is calibrated on its own judgements (given here; one in seven is confidently wrong).
    const judged = (win: string) => {
      const pWin = rand() < 1 / 7 ? 0.001 : 0.3 + 0.4 * rand();
      return win === "first" ? { first: pWin, second: 1 - pWin } : { first: 1 - pWin, second: pWin };
    };
    await client.addExamples("jm", Array.from({ length: 80 }, () => {
      const p = 0.5 + 0.4 * rand();
      const win = rand() < 0.5 ? "first" : "second";
      return {
        context: { candidates: { first: "a", second: "b" } }, label: win,
        metadata: { evidence: { option_probabilities: { first: p, second: 1 - p }, stage_probabilities: { small: judged(win), large: judged(win) } } },
      };
    }));
    const res = await client.evaluate({
      context: { candidates: { first: "The cat sat.", second: "The dog ran." } },
      queries: { j: { type: "judge", instructions: "Which sentence is nicer?", calibration_profile: "jm", cascade: [{ backend: { provider: "vllm", name: "small" } }, { backend: { provider: "vllm", name: "large" } }, { backend: "human_queue" }] } },
    });
    expect(res.answers.j).toMatchObject({ type: "judge", winner: null, escalated_to: "human_queue" });
    expect(res.usage!.backend_calls).toBe(2);
    const queue = await client.listHumanQueue();
    expect(queue.items.some((i) => i.kind === "escalation" && i.query === "j")).toBe(true);
  });

  it("asks a configured request backend for the evidence the caller did not send", async () => {
    await client.createProfile({ name: "asked", backend: { provider: "vllm", name: "small" }, alpha: 0.2, strict_fingerprint: false });
    await client.addExamples("asked", Array.from({ length: 40 }, (_, i) => {
      const p = 0.3 + 0.6 * rand();
      return { context: `story ${i}`, label: p > 0.5 ? "happy" : "sad", metadata: { evidence: { option_probabilities: { happy: p, sad: 1 - p } } } };
    }));
    const res = await client.evaluate({
      context: "Once upon a time, there was a happy dog.", backend: { provider: "vllm", name: "small" },
      queries: { mood: { type: "set", instructions: "Is the story happy or sad?", options: { happy: "happy", sad: "sad" }, calibration_profile: "asked" } },
    });
    const mood = res.answers.mood!;
    expect(mood).toMatchObject({ type: "set", guarantee: { kind: "coverage", n: 40 } });
    expect(["L1", "L2"]).toContain(mood.guarantee.evidence_level);
    if (mood.type === "set") expect(mood.probabilities.happy! + mood.probabilities.sad!).toBeCloseTo(1, 6);
    expect(res.usage!.backend_calls).toBe(1);
    // A hint above what the backend reaches is a 502, never a silent downgrade.
    const e = await client.evaluate({
      context: "x", backend: { provider: "vllm", name: "small", access_hint: "hidden-state" },
      queries: { mood: { type: "set", instructions: "?", options: { happy: "happy", sad: "sad" }, calibration_profile: "asked" } },
    }).catch((x: unknown) => x);
    expect((e as { status?: number }).status).toBe(502);
  });

  it("labels with a judge in a background job and samples items for human review", async () => {
    const before = await client.getProfile("jm");
    const job = await client.labelWithJudge("jm", {
      judge: "small",
      unlabelled_examples: Array.from({ length: 6 }, (_, i) => ({ context: { candidates: { first: `story ${i}`, second: `tale ${i}` } } })),
      human_labelled_sample_size: 2,
    });
    expect(job).toMatchObject({ profile: "jm", total: 6 });
    expect(["queued", "running"]).toContain(job.status);
    let state = job;
    for (let i = 0; i < 100 && (state.status === "queued" || state.status === "running"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      state = await client.getLabellingJob("jm", job.id!);
    }
    expect(state).toMatchObject({ status: "succeeded", labelled: 6 });
    expect(state.human_review).toHaveLength(2);
    const after = await client.getProfile("jm");
    expect(after.n).toBe(before.n + 6);
    expect(after.version).toBe(before.version + 1);
    const review = (await client.listHumanQueue()).items.filter((i) => i.kind === "labelling" && i.job_id === job.id);
    expect(review).toHaveLength(2);
  });
});
