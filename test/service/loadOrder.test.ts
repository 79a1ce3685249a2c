// A start reads the listed profiles one at a time in the background; a request for one still waiting in that
// queue has it read at once, ahead of those listed before it (a user asks for the profile they need, and should
// not wait for others). Asserted by order — which profiles are in memory when the one asked for is — on SQLite
// and a real PostgreSQL, with two large profiles listed before the one asked for. The queue itself (its grace at
// start, and waiting while requests wait for a calibration build) is tested on its own at the end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoadQueue } from "../../src/service/profiles/loadQueue.js";
import { ProfileStore } from "../../src/service/profiles/profileStore.js";
import { startService } from "../../src/service/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { CLIENT_BACKEND, lcg, setExample, tempDir } from "./helpers.js";

let postgres: PostgresServer;
beforeAll(() => {
  postgres = startPostgres();
}, 60_000);
afterAll(() => postgres?.destroy());

/** Profiles a1 and a2 (listed first, 6,000 examples each, a checkpoint and events after it) and b (small). */
async function grown(engine: "sqlite" | "postgres"): Promise<{ dataDir: string; url: string | undefined }> {
  const dataDir = await tempDir();
  const url = engine === "postgres" ? await postgres.database(`load_order_${Date.now()}`) : undefined;
  const service = await startService({ dataDir, store: url, checkpointEvery: 1000, log: () => undefined });
  const rand = lcg(5);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${service.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(res.status).toBeLessThan(300);
  };
  for (const [name, size] of [["a1", 6000], ["a2", 6000], ["b", 100]] as const) {
    await post("/calibration-profiles", { name, backend: CLIENT_BACKEND, alpha: 0.1 });
    for (let at = 0; at < size; at += 500) await post(`/calibration-profiles/${name}/examples`, { examples: Array.from({ length: 500 }, (_, i) => setExample(rand, at + i)).slice(0, size - at) });
  }
  await service.close();
  return { dataDir, url };
}

const waitFor = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setImmediate(r));
};

describe.each(["sqlite", "postgres"] as const)("the profiles read at a start on %s", (engine) => {
  let stored: { dataDir: string; url: string | undefined };
  beforeAll(async () => {
    stored = await grown(engine);
  }, 120_000);

  const opened = async (): Promise<{ store: Store; profiles: ProfileStore }> => {
    const store = await openStore({ url: stored.url, dataDir: stored.dataDir });
    return { store, profiles: await ProfileStore.open(store, () => undefined) };
  };

  it("reads a profile an async route waits for before those listed ahead of it that have not started", async () => {
    const { store, profiles } = await opened();
    try {
      // While the store opened (PostgreSQL's LISTEN is a round trip), a1's read may already have ended and a2's
      // begun: a2 then cannot wait for b, and only a queue still at a1 shows the order.
      const a2Queued = profiles.find("a1") === undefined;
      const b = await profiles.fetch("b");
      expect(b.n).toBe(100);
      // a1 was being read when b was asked for; a2, queued behind it, waits for b.
      if (a2Queued) expect(profiles.find("a2")).toBeUndefined();
      await profiles.ready();
      expect(profiles.find("a1")?.n).toBe(6000);
      expect(profiles.find("a2")?.n).toBe(6000);
    } finally {
      await profiles.close();
      await store.close();
    }
  });

  it("reads a profile an evaluate asked for (answered 503 meanwhile) before those listed ahead of it", async () => {
    const { store, profiles } = await opened();
    try {
      const a2Queued = profiles.find("a1") === undefined; // as above
      expect(() => profiles.get("b")).toThrow(expect.objectContaining({ status: 503, code: "profile_loading" }));
      await waitFor(() => profiles.find("b") !== undefined);
      if (a2Queued) expect(profiles.find("a2")).toBeUndefined();
      expect(profiles.get("b").n).toBe(100);
      await profiles.ready();
      expect(profiles.find("a2")?.n).toBe(6000);
    } finally {
      await profiles.close();
      await store.close();
    }
  });

  it("leaves the store to requests for a short grace at start, then reads every profile in the background", async () => {
    const { store, profiles } = await opened();
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(["a1", "a2", "b"].map((name) => profiles.find(name))).toEqual([undefined, undefined, undefined]);
      // Nobody asks: the background reads begin once the grace is over, and read them all.
      await waitFor(() => ["a1", "a2", "b"].every((name) => profiles.find(name) !== undefined));
      expect(profiles.find("a2")?.n).toBe(6000);
    } finally {
      await profiles.close();
      await store.close();
    }
  });
});

describe("the background read queue", () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const turns = async (k = 5) => {
    for (let i = 0; i < k; i++) await new Promise((r) => setImmediate(r));
  };

  it("waits a grace at start and after each read a request asked for, and while requests wait for other work", async () => {
    let held: { promise: Promise<void>; resolve: () => void } | undefined;
    const queue = new LoadQueue<string>(40, () => held?.promise);
    const started: string[] = [];
    const ends = new Map<string, () => void>();
    const read = (name: string) => () => new Promise<string>((resolve) => {
      started.push(name);
      ends.set(name, () => resolve(name));
    });
    const done = ["w", "x", "y", "z"].map((name) => queue.enqueue(name, read(name)));
    let resolve!: () => void;
    held = { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() };
    queue.next();
    await turns();
    expect(started).toEqual([]); // the grace at start
    await sleep(60);
    expect(started).toEqual([]); // a request waits for a build: the background waits with it
    queue.hurry("z");
    expect(started).toEqual(["z"]);
    ends.get("z")!();
    held.resolve();
    held = undefined;
    await turns();
    expect(started).toEqual(["z"]); // the grace after a read a request asked for
    await sleep(60);
    expect(started).toEqual(["z", "w"]);
    ends.get("w")!();
    await turns();
    expect(started).toEqual(["z", "w", "x"]); // one after the other, no grace between background reads
    queue.hurry("y");
    ends.get("y")!();
    ends.get("x")!();
    await turns();
    expect(await Promise.all(done)).toEqual(["w", "x", "y", "z"]);
  });

  it("reads everything at once when released (a listing needs every profile)", async () => {
    const queue = new LoadQueue<string>(60_000);
    const done = ["a", "b"].map((name) => queue.enqueue(name, async () => name));
    queue.next();
    await turns();
    queue.release();
    expect(await Promise.all(done)).toEqual(["a", "b"]);
  });
});
