// A labelling job running when its only `calibkit serve` process is killed resumes after a restart on the same
// data folder (embedded SQLite store): the restarted instance claims the job once its lease runs out, runs it
// to the end, and its examples join the profile once.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lcg, REPO, setExample, spawnCalibkit, startServer, tempDir, type Spawned } from "./helpers.js";

const MODEL = join(process.env.CALIBKIT_MODELS_DIR ?? join(REPO, "../shared/models"), "stories260K.gguf");
const BACKEND = { provider: "client_evidence", name: "local-model", access_level: "L1" } as const;

let model: Spawned;
let server: Spawned & { data: string };
let config: unknown;

beforeAll(async () => {
  model = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1"], 60_000);
  config = { backends: [{ name: "small", provider: "vllm", base_url: model.url, max_tokens: 4 }] };
}, 90_000);
afterAll(async () => {
  await Promise.all([server?.stop("SIGKILL"), model?.stop()]);
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method, headers: { "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe("a labelling job across a restart", () => {
  it("resumes instead of failing, and adds its examples once", async () => {
    server = await startServer({ data: await tempDir(), config });
    const rand = lcg(5);
    await call("POST", "/calibration-profiles", { name: "jobs", backend: BACKEND, alpha: 0.2 });
    await call("POST", "/calibration-profiles/jobs/examples", { examples: Array.from({ length: 30 }, (_, i) => setExample(rand, i)) });
    const before = (await call("GET", "/calibration-profiles/jobs")).body;
    const unlabelled = Array.from({ length: 400 }, (_, i) => ({ context: `Once upon a time there was story number ${i}.` }));
    const submitted = await call("POST", "/calibration-profiles/jobs/label-with-judge", { judge: "small", unlabelled_examples: unlabelled, human_labelled_sample_size: 3 });
    expect(submitted.status).toBe(202);
    const id = submitted.body.id as string;
    // Killed at once: the job is queued or running, never finished.
    await server.stop("SIGKILL");
    const data = server.data;
    server = await startServer({ data, config });
    let job = (await call("GET", `/calibration-profiles/jobs/label-with-judge/${id}`)).body;
    for (let i = 0; i < 300 && (job.status === "queued" || job.status === "running"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await call("GET", `/calibration-profiles/jobs/label-with-judge/${id}`)).body;
    }
    expect(job).toMatchObject({ status: "succeeded", labelled: 400 });
    const after = (await call("GET", "/calibration-profiles/jobs")).body;
    expect(after.n).toBe(before.n + 400);
    const review = ((await call("GET", "/human-queue?kind=labelling")).body.items as { job_id: string }[]).filter((i) => i.job_id === id);
    expect(review).toHaveLength(3);
  }, 120_000);
});
