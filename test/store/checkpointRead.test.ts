// A checkpoint of many megabytes is read back byte for byte: PostgreSQL sends it by COPY in binary (its bytes as
// they are, seq, n and data from one snapshot), SQLite in one row. A checkpoint replaced while it is read is read
// whole, the old or the new, never a mix.
import { randomFillSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { tempDir } from "../service/helpers.js";
import { startPostgres, type PostgresServer } from "./postgresServer.js";

let postgres: PostgresServer;
beforeAll(() => {
  postgres = startPostgres();
}, 60_000);
afterAll(() => postgres?.destroy());

describe.each(["sqlite", "postgres"] as const)("a checkpoint on %s", (engine) => {
  it("of 10 MB is read back whole and unchanged, and a newer one replaces one of the same event", async () => {
    const store = await openStore(engine === "postgres" ? { url: await postgres.database(`pieces_${Date.now()}`) } : { dataDir: await tempDir() });
    try {
      await store.profiles.create("p", { name: "p" }, new Date().toISOString());
      const data = randomFillSync(new Uint8Array(10 * 1024 * 1024 + 3));
      expect(await store.profiles.saveCheckpoint("p", 5, 100, data.slice())).toBe(true);
      const read = await store.profiles.checkpoint("p");
      expect(read?.seq).toBe(5);
      expect(read?.n).toBe(100);
      expect(Buffer.from(read!.data).equals(Buffer.from(data))).toBe(true);
      // The same event again (more calibrations since): kept; an older event: refused.
      expect(await store.profiles.saveCheckpoint("p", 5, 100, new Uint8Array([1, 2, 3]))).toBe(true);
      expect(await store.profiles.saveCheckpoint("p", 4, 90, new Uint8Array([9]))).toBe(false);
      expect([...(await store.profiles.checkpoint("p"))!.data]).toEqual([1, 2, 3]);
      expect(await store.profiles.checkpoint("none")).toBeUndefined();
    } finally {
      await store.close();
    }
  }, 60_000);

  it("replaced while it is read, is read as one checkpoint, never a mix", async () => {
    const store = await openStore(engine === "postgres" ? { url: await postgres.database(`mix_${Date.now()}`) } : { dataDir: await tempDir() });
    try {
      await store.profiles.create("p", { name: "p" }, new Date().toISOString());
      // Each checkpoint is one byte value throughout, its seq the value: a torn read would show two.
      const of = (seq: number) => new Uint8Array(3 * 1024 * 1024 + seq * 4099).fill(seq);
      await store.profiles.saveCheckpoint("p", 1, 1, of(1));
      let writing = true;
      const writer = (async () => {
        for (let seq = 2; writing && seq < 200; seq++) await store.profiles.saveCheckpoint("p", seq, seq, of(seq));
      })();
      const seen = new Set<number>();
      for (let r = 0; r < 12; r++) {
        const read = (await store.profiles.checkpoint("p"))!;
        expect(read.n).toBe(read.seq);
        expect(read.data.length).toBe(of(read.seq).length);
        expect(read.data.every((b) => b === read.seq % 256)).toBe(true);
        seen.add(read.seq);
        await new Promise((r) => setTimeout(r, 10));
      }
      writing = false;
      await writer;
      expect(seen.size).toBeGreaterThan(1); // the reads did overlap writes
    } finally {
      await store.close();
    }
  }, 120_000);
});
