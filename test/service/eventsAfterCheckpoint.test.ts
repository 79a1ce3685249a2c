// A start after a crash reads the profile's checkpoint and the events written after it (a crash leaves up to a
// rebuild step or two of them), and feeds the pools from those events as it applies them: its first answers are
// those of the process before it, which took the same batches live, on SQLite and on a real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../src/service/index.js";
import { openStore } from "../../src/store/index.js";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { CLIENT_BACKEND, lcg, setExample, tempDir } from "./helpers.js";

let postgres: PostgresServer;
beforeAll(() => {
  postgres = startPostgres();
}, 60_000);
afterAll(() => postgres?.destroy());

// One x-request-id for every call: it seeds randomized (APS) answers, which are compared across requests.
async function call(service: RunningService, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  for (let tries = 0; ; tries++) {
    const res = await fetch(`${service.url}/api/v1${path}`, { method, headers: { "content-type": "application/json", "x-request-id": "events-seed" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    // 503 while the profile is read after a start; 529 when a loaded machine made the loop lag.
    if ((res.status !== 503 && res.status !== 529) || tries > 300) return { status: res.status, text };
    await new Promise((r) => setTimeout(r, 20));
  }
}

const queries = Object.fromEntries(["LAC", "APS"].map((method, k) => [method, {
  type: "set", instructions: "Pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "cp", method,
  evidence: { option_probabilities: { A: 0.4 - k * 0.1, B: 0.3, C: 0.2, D: 0.1 + k * 0.1 } },
}]));

/** The evaluate answer as its bytes, less the request id (the one part that differs between requests). */
async function answerText(service: RunningService): Promise<string> {
  const res = await call(service, "POST", "/evaluate", { context: "x", backend: CLIENT_BACKEND, queries });
  expect(res.status).toBe(200);
  const { request_id: _id, ...rest } = JSON.parse(res.text) as Record<string, unknown>;
  return JSON.stringify(rest); // numbers written back as they were read: the same bytes for the same doubles
}

describe.each(["sqlite", "postgres"] as const)("a start after a crash on %s", (engine) => {
  it("answers as the process before it, from the checkpoint and the events after it", async () => {
    const dataDir = await tempDir();
    const store = engine === "postgres" ? await postgres.database(`after_${Date.now()}`) : undefined;
    const start = (checkpointEvery: number) => startService({ dataDir, store, checkpointEvery, log: () => undefined });
    const rand = lcg(5);
    let next = 0;
    const batch = () => ({ examples: Array.from({ length: 4000 }, () => setExample(rand, next++)) });

    // 20,000 examples, checkpointed at the clean stop.
    const first = await start(1000);
    expect((await call(first, "POST", "/calibration-profiles", { name: "cp", backend: CLIENT_BACKEND, alpha: 0.1 })).status).toBe(201);
    for (let b = 0; b < 5; b++) expect((await call(first, "POST", "/calibration-profiles/cp/examples", batch())).status).toBe(200);
    await first.close();

    // The process that crashes: it writes no checkpoint (its threshold is never reached, as when the kill comes
    // before one is due or while one is being written), takes three more batches live and answers.
    const crashed = await start(1_000_000_000);
    for (let b = 0; b < 3; b++) expect((await call(crashed, "POST", "/calibration-profiles/cp/examples", batch())).status).toBe(200);
    const before = await answerText(crashed);
    expect(JSON.parse(before).answers.LAC.guarantee.n).toBe(32_000);
    await crashed.close();
    const opened = await openStore({ url: store, dataDir });
    const checkpoint = await opened.profiles.checkpoint("cp");
    const after = await opened.profiles.events("cp", checkpoint!.seq);
    await opened.close();
    expect(checkpoint!.n).toBe(20_000);
    expect(after.length).toBe(3);

    const restarted = await start(1000);
    try {
      expect(await answerText(restarted)).toBe(before);
    } finally {
      await restarted.close();
    }
  }, 120_000);
});
