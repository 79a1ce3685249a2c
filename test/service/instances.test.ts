// Many instances, one truth: two `calibkit serve` processes on one real PostgreSQL. A profile created through
// one is served by both; concurrent ingestion through both gets one order, so both answer byte-identically;
// killing one mid-ingestion loses nothing it acknowledged; a labelling job whose instance died is finished by
// the other (its lease runs out and the survivor claims it).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { lcg, REPO, setExample, spawnCalibkit, startServer, tempDir, type Spawned } from "./helpers.js";

const MODEL = join(process.env.CALIBKIT_MODELS_DIR ?? join(REPO, "../shared/models"), "stories260K.gguf");
const BACKEND = { provider: "client_evidence", name: "local-model", access_level: "L1" } as const;

let postgres: PostgresServer;
let model: Spawned;
let a: Spawned;
let b: Spawned;
let config: unknown;
let store: string;

beforeAll(async () => {
  postgres = startPostgres();
  store = await postgres.database("instances");
  model = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1"], 60_000);
  config = { backends: [{ name: "small", provider: "vllm", base_url: model.url, max_tokens: 4 }] };
  [a, b] = await Promise.all([startServer({ store, config }), startServer({ store, config })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.stop("SIGKILL"), b?.stop(), model?.stop()]);
  postgres?.destroy();
});

async function call(server: Spawned, method: string, path: string, body?: unknown, key?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers["idempotency-key"] = key;
  const res = await fetch(`${server.url}/api/v1${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await res.json()) as Record<string, any>;
  delete json.request_id;
  return { status: res.status, body: json };
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const evaluateBody = {
  context: "x", backend: BACKEND,
  queries: Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`q${k}`, {
    type: "set", instructions: "Pick", calibration_profile: "shared", options: { A: "a", B: "b", C: "c", D: "d" },
    evidence: { option_probabilities: { A: 0.1 + k / 40, B: 0.3, C: 0.2, D: 0.4 - k / 40 } },
  }])),
};

describe("two instances on one PostgreSQL", () => {
  it("serves a profile created on one from both; concurrent ingestion through both gives one order and identical answers", async () => {
    expect((await call(a, "POST", "/calibration-profiles", { name: "shared", backend: BACKEND, alpha: 0.1 })).status).toBe(201);
    expect((await call(b, "GET", "/calibration-profiles/shared")).body).toMatchObject({ name: "shared", n: 0 });
    // The same definition through the other instance is the same profile (200), another one is a conflict.
    expect((await call(b, "POST", "/calibration-profiles", { name: "shared", backend: BACKEND, alpha: 0.1 })).status).toBe(200);
    expect((await call(b, "POST", "/calibration-profiles", { name: "shared", backend: BACKEND, alpha: 0.2 })).status).toBe(409);

    const rand = lcg(11);
    let sent = 0;
    await Promise.all(Array.from({ length: 8 }, async (_, w) => {
      const via = w % 2 === 0 ? a : b;
      for (let i = 0; i < 10; i++) {
        const examples = Array.from({ length: 10 }, (_, k) => setExample(rand, w * 1000 + i * 10 + k, { batch: `w${w}-${i}` }));
        const res = await call(via, "POST", "/calibration-profiles/shared/examples", { examples }, `w${w}-${i}`);
        expect(res.status).toBe(200);
        sent += 10;
        // A retry through the other instance is a replay, applied once.
        if (i === 0) expect((await call(via === a ? b : a, "POST", "/calibration-profiles/shared/examples", { examples }, `w${w}-${i}`)).body.idempotent_replay).toBe(true);
      }
    }));
    const profileA = await until("instance A's version", () => call(a, "GET", "/calibration-profiles/shared"), (r) => r.body.version === 80);
    const profileB = await until("instance B's version", () => call(b, "GET", "/calibration-profiles/shared"), (r) => r.body.version === 80);
    expect(profileA.body.n).toBe(sent);
    expect(profileB.body).toEqual(profileA.body);
    const pageA = await call(a, "GET", "/calibration-profiles/shared/examples?limit=10000");
    const pageB = await call(b, "GET", "/calibration-profiles/shared/examples?limit=10000");
    expect(pageB.body).toEqual(pageA.body);
    const answerA = await call(a, "POST", "/evaluate", evaluateBody);
    const answerB = await call(b, "POST", "/evaluate", evaluateBody);
    expect(answerA.status).toBe(200);
    expect(JSON.stringify(answerB.body)).toBe(JSON.stringify(answerA.body));
  }, 60_000);

  it("loses nothing one instance acknowledged when it is killed mid-ingestion", async () => {
    const rand = lcg(12);
    const acked: string[] = [];
    const before = (await call(b, "GET", "/calibration-profiles/shared")).body.n as number;
    let killed = false;
    const writers = Array.from({ length: 10 }, async (_, w) => {
      const via = w % 2 === 0 ? a : b;
      for (let i = 0; i < 30; i++) {
        const batch = `kill-w${w}-${i}`;
        const examples = Array.from({ length: 10 }, (_, k) => setExample(rand, k, { batch }));
        try {
          const res = await call(via, "POST", "/calibration-profiles/shared/examples", { examples }, batch);
          if (res.status === 200) acked.push(batch);
        } catch {
          if (via === a && killed) return; // the killed instance's unanswered request
          throw new Error(`instance ${via === a ? "A" : "B"} failed a request`);
        }
      }
    });
    await until("some acknowledgements", async () => acked.length, (n) => n >= 20);
    a.child.kill("SIGKILL");
    killed = true;
    await Promise.all(writers);
    // B learns of A's last commits by notification: wait (bounded) until it holds every acknowledged batch.
    const countBatches = async () => {
      const page = await call(b, "GET", `/calibration-profiles/shared/examples?offset=${before}&limit=10000`);
      const batches = new Map<string, number>();
      for (const e of page.body.examples as { metadata: { batch: string } }[]) batches.set(e.metadata.batch, (batches.get(e.metadata.batch) ?? 0) + 1);
      return batches;
    };
    const batches = await until("every acknowledged batch on B", countBatches, (m) => acked.every((batch) => m.get(batch) === 10), 10_000).catch(countBatches);
    for (const batch of acked) expect(batches.get(batch), `acknowledged ${batch}`).toBe(10);
    const profile = await call(b, "GET", "/calibration-profiles/shared");
    for (const [batch, n] of batches) expect(n, batch).toBe(10);
    expect(profile.body.n).toBe(before + 10 * batches.size);
    a = await startServer({ store, config });
  }, 60_000);

  it("finishes on the other instance a labelling job whose instance was killed", async () => {
    await call(a, "POST", "/calibration-profiles", { name: "judged", backend: BACKEND, alpha: 0.2 });
    const labelled = Array.from({ length: 10 }, (_, i) => ({
      context: `story ${i}`, label: i % 2 ? "happy" : "sad", metadata: { evidence: { option_probabilities: { happy: i % 2 ? 0.7 : 0.3, sad: i % 2 ? 0.3 : 0.7 } } },
    }));
    expect((await call(a, "POST", "/calibration-profiles/judged/examples", { examples: labelled })).status).toBe(200);
    const submitted = await call(a, "POST", "/calibration-profiles/judged/label-with-judge", {
      judge: "small", human_labelled_sample_size: 3,
      unlabelled_examples: Array.from({ length: 60 }, (_, i) => ({ context: `Once upon a time ${i}, a dog was` })),
    });
    expect(submitted.status).toBe(202);
    const id = submitted.body.id as string;
    a.child.kill("SIGKILL");
    const done = await until("the job finished by B", () => call(b, "GET", `/calibration-profiles/judged/label-with-judge/${id}`),
      (r) => r.body.status === "succeeded" || r.body.status === "failed", 40_000);
    expect(done.body).toMatchObject({ status: "succeeded", labelled: 60, total: 60 });
    expect(b.stderr()).toContain(`labelling job ${id}: its instance stopped renewing it`);
    const profile = await call(b, "GET", "/calibration-profiles/judged");
    expect(profile.body.n).toBe(70);
    const review = (await call(b, "GET", "/human-queue?profile=judged")).body.items as { job_id: string }[];
    expect(review.filter((item) => item.job_id === id)).toHaveLength(3);
  }, 90_000);
});
