// A checkpoint larger than one piece (4 MiB) is read back from PostgreSQL byte for byte: PostgreSQL sends it in
// base64 pieces, checked to be of one checkpoint. SQLite reads it in one row.
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
    } finally {
      await store.close();
    }
  }, 60_000);
});
