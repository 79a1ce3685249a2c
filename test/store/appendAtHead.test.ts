// Appending a profile event on a real PostgreSQL: an instance at the head appends in one statement (build asked
// once, with no missed events); one behind it — another instance wrote meanwhile — is refused by that statement
// and goes the locked way (build asked again, with what it missed), and the order stays one; a reused
// Idempotency-Key writes nothing; each notice names its event's sequence number, so an instance can tell its own
// events (applied already) from others'. And the service's profile store reads nothing back after its own notices,
// while another instance's writes still reach it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ProfileStore } from "../../src/service/profiles/profileStore.js";
import { prepareExamples } from "../../src/service/profiles/ingest.js";
import { IdempotencyKeyTaken, openStore, type ProfileEvent, type Store } from "../../src/store/index.js";
import { CLIENT_BACKEND, lcg, setExample } from "../service/helpers.js";
import { startPostgres, type PostgresServer } from "./postgresServer.js";

let postgres: PostgresServer;
beforeAll(() => {
  postgres = startPostgres();
}, 60_000);
afterAll(() => postgres?.destroy());

const until = async (ok: () => boolean, ms = 5_000) => {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("appending at the head on PostgreSQL", () => {
  it("appends in one statement when at the head, goes the locked way when behind, and names the event in its notice", async () => {
    const url = await postgres.database(`append_${Date.now()}`);
    const a = await openStore({ url });
    const b = await openStore({ url });
    try {
      const notices: string[] = [];
      await b.onChange((what) => notices.push(what));
      await a.profiles.create("p", { name: "p" }, new Date().toISOString());
      const calls: ProfileEvent[][] = [];
      const event = (n: number, key?: string) => async (missed: ProfileEvent[]) => {
        calls.push(missed);
        return { event: { kind: "examples", record: { t: "examples", n }, ...(key ? { idempotency: { key, sha256: "s" } } : {}) }, value: n };
      };
      expect(await a.profiles.append("p", 0, event(1, "k1"))).toEqual({ seq: 1, value: 1 });
      expect(calls).toEqual([[]]);
      // b is behind (it knows head 0): asked first as if at the head, then again with the event it missed.
      calls.length = 0;
      expect(await b.profiles.append("p", 0, event(2))).toEqual({ seq: 2, value: 2 });
      expect(calls.map((missed) => missed.map((e) => e.seq))).toEqual([[], [1]]);
      expect(calls[1]![0]).toMatchObject({ seq: 1, record: { t: "examples", n: 1 }, text: JSON.stringify({ t: "examples", n: 1 }) });
      // A key already stored: nothing written, the head stays.
      await expect(a.profiles.append("p", 2, event(3, "k1"))).rejects.toBeInstanceOf(IdempotencyKeyTaken);
      expect((await a.profiles.get("p"))!.head).toBe(2);
      expect((await a.profiles.events("p", 0)).map((e) => e.seq)).toEqual([1, 2]);
      expect(await a.profiles.idempotencyKey("p", "k1")).toEqual({ sha256: "s", seq: 1 });
      await until(() => notices.includes("profile:p@2"));
      expect(notices.filter((n) => n.startsWith("profile:"))).toEqual(["profile:p", "profile:p@1", "profile:p@2"]);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it("reads nothing back after its own notices, and still applies another instance's events", async () => {
    const url = await postgres.database(`notices_${Date.now()}`);
    const stores: Store[] = [await openStore({ url }), await openStore({ url })];
    const [one, two] = await Promise.all(stores.map((s) => ProfileStore.open(s, () => undefined)));
    try {
      await one!.create({ name: "p", backend: CLIENT_BACKEND, method: "LAC", alpha: 0.1, strict_fingerprint: false } as never);
      await until(() => two!.find("p") !== undefined);
      await new Promise((r) => setTimeout(r, 300)); // the notice of the creation has come back
      const reads = vi.spyOn(stores[0]!.profiles, "events");
      const rand = lcg(1);
      const batch = (from: number) => Array.from({ length: 20 }, (_, i) => setExample(rand, from + i)) as never[];
      const ingest = (profiles: ProfileStore, from: number) =>
        profiles.change("p", async (state) => ({ record: prepareExamples(state, batch(from), undefined).record, result: (s) => s.n }));
      for (let k = 0; k < 5; k++) expect(await ingest(one!, k * 20)).toBe((k + 1) * 20);
      await new Promise((r) => setTimeout(r, 300)); // the notices of its own five events have come back
      expect(reads).not.toHaveBeenCalled();
      // Another instance's event: read and applied.
      expect(await ingest(two!, 100)).toBe(120);
      await until(() => one!.find("p")!.n === 120);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(one!.find("p")!.examplesIn(100, 120)).toEqual(two!.find("p")!.examplesIn(100, 120));
    } finally {
      await one!.close();
      await two!.close();
      for (const s of stores) await s.close();
    }
  }, 60_000);
});
