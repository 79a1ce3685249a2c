// Durability, on both engines: 50 concurrent writers add example batches to three profiles while the server process is
// SIGKILLed at a random moment; after each restart every acknowledged batch is there in full, and every batch
// that is there is whole (a batch is one event row: all of it or none of it), with no batch twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { lcg, startServer, tempDir } from "./helpers.js";

const WRITERS = 50;
const ROUNDS = 3;
const BATCH = 25;
const PROFILES = ["p0", "p1", "p2"];

interface Ack { profile: string; batch: string }

async function writer(url: string, id: number, round: number, acks: Ack[], stop: { killed: boolean }) {
  const profile = PROFILES[id % PROFILES.length]!;
  for (let b = 0; b < 200 && !stop.killed; b++) {
    const batch = `r${round}-w${id}-b${b}`;
    const examples = Array.from({ length: BATCH }, (_, k) => ({
      context: `${batch} example ${k} ${"x".repeat(200)}`, label: "A",
      metadata: { batch, k, evidence: { option_probabilities: { A: 0.6, B: 0.4 } } },
    }));
    try {
      const res = await fetch(`${url}/api/v1/calibration-profiles/${profile}/examples`, {
        method: "POST", headers: { "content-type": "application/json", "idempotency-key": batch }, body: JSON.stringify({ examples }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      acks.push({ profile, batch });
    } catch {
      return; // the server died under us: this batch is unacknowledged
    }
  }
}

async function readAll(url: string, profile: string) {
  const out: { metadata: { batch: string; k: number } }[] = [];
  for (let offset = 0; offset < 1_000_000;) {
    const page = (await (await fetch(`${url}/api/v1/calibration-profiles/${profile}/examples?offset=${offset}&limit=10000`)).json()) as { examples: typeof out; total: number };
    out.push(...page.examples);
    offset += page.examples.length;
    if (offset >= page.total || page.examples.length === 0) break;
  }
  return out;
}

let postgres: PostgresServer;
beforeAll(() => {
  postgres = startPostgres();
}, 60_000);
afterAll(() => postgres?.destroy());

describe("crash safety", () => {
  it("keeps every acknowledged batch and never half of one across SIGKILLs (SQLite)", () => crashRounds(undefined), 80_000);
  it("keeps every acknowledged batch and never half of one across SIGKILLs (PostgreSQL)", async () => crashRounds(await postgres.database("crash")), 80_000);
});

async function crashRounds(store: string | undefined) {
    const seed = Date.now() >>> 0;
    const rand = lcg(seed);
    const data = await tempDir("calibkit-crash-");
    let server = await startServer({ data, store });
    for (const name of PROFILES) {
      const res = await fetch(`${server.url}/api/v1/calibration-profiles`, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, backend: { provider: "client_evidence", name: "m", access_level: "L1" }, alpha: 0.1 }),
      });
      expect(res.status).toBe(201);
    }
    const acks: Ack[] = [];
    try {
    for (let round = 0; round < ROUNDS; round++) {
      const stop = { killed: false };
      const writers = Array.from({ length: WRITERS }, (_, id) => writer(server.url, id, round, acks, stop));
      const acked = acks.length;
      // Kill at a random moment once ingestion is under way (the first acknowledgement of the round).
      for (let waited = 0; acks.length === acked && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, rand() * 700));
      server.child.kill("SIGKILL");
      stop.killed = true;
      await server.stop();
      await Promise.all(writers);
      expect(acks.length, "the round acknowledged some batches before the kill").toBeGreaterThan(acked);
      server = await startServer({ data, store });
      await new Promise((r) => setTimeout(r, 50));
      console.info(`${store ? "PostgreSQL" : "SQLite"} round ${round}: ${acks.length} batches acknowledged so far`);
      for (const name of PROFILES) {
        const examples = await readAll(server.url, name);
        const byBatch = new Map<string, number[]>();
        for (const e of examples) {
          const list = byBatch.get(e.metadata.batch) ?? [];
          list.push(e.metadata.k);
          byBatch.set(e.metadata.batch, list);
        }
        for (const [batch, ks] of byBatch) {
          expect(ks, `batch ${batch} (seed ${seed})`).toEqual(Array.from({ length: BATCH }, (_, k) => k));
        }
        for (const ack of acks.filter((a) => a.profile === name)) {
          expect(byBatch.has(ack.batch), `acknowledged ${ack.batch} lost (seed ${seed})`).toBe(true);
        }
        const profile = (await (await fetch(`${server.url}/api/v1/calibration-profiles/${name}`)).json()) as { n: number };
        expect(profile.n).toBe(examples.length);
      }
    }
    // The recovered logs still take writes.
    const res = await fetch(`${server.url}/api/v1/calibration-profiles/p0/examples`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ examples: [{ context: "after", label: "A" }] }),
    });
    expect(res.status).toBe(200);
    expect(await server.stop()).toBe(0);
    } finally {
      if (server.child.exitCode === null && server.child.signalCode === null) await server.stop("SIGKILL");
    }
}
