// The evidence cache's in-flight marks (#13): a batch is marked before it is computed and its commit clears
// the marks in the same transaction, so what a killed process leaves marked is what it was computing; a
// restart reclaims the marks of processes that no longer run and leaves a live process's alone.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cachedRows } from "../../src/evidence/index.js";
import { EvidenceCache, type EvidenceKey } from "../../src/store/index.js";

const key = (i: number): EvidenceKey => ({ fingerprint: "sha256:f", promptHash: "sha256:p", contentHash: `sha256:${i}`, accessLevel: "L3", sampling: "{}" });
/** The pid of a process that has exited. */
const deadPid = () => String(spawnSync(process.execPath, ["-e", ""]).pid);

describe("in-flight marks of the evidence cache", () => {
  it("marks, clears on commit, and reclaims only the marks of a stopped process", async () => {
    const cache = EvidenceCache.open(mkdtempSync(join(tmpdir(), "calibkit-inflight-")));
    const dead = deadPid();
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      cache.begin([key(0), key(1), key(2)], dead);
      cache.begin([key(3)], String(live.pid));
      cache.begin([key(4)]);
      expect(cache.inFlight()).toEqual({ [dead]: 3, [String(live.pid)]: 1, [String(process.pid)]: 1 });
      cache.putMany([{ key: key(4), model: "m", evidence: { x: 4 } }]);
      expect(cache.inFlight()[String(process.pid)]).toBeUndefined();
      // Only the stopped process's marks among the keys asked about are reclaimed.
      expect(cache.reclaim([key(0), key(1), key(3), key(9)])).toBe(2);
      expect(cache.inFlight()).toEqual({ [dead]: 1, [String(live.pid)]: 1 });

      // cachedRows computes the missing rows, says how many a stopped process had in flight, and leaves no mark.
      let computed = 0;
      const r = await cachedRows([0, 1, 2, 3, 4, 5], {
        cache, model: "m", batch: 4, key: (i) => key(i),
        compute: async (xs) => xs.map((x) => (computed++, { x })),
      });
      expect(r).toMatchObject({ hits: 1, computed: 5, redone: 1 });
      expect(r.rows).toEqual([0, 1, 2, 3, 4, 5].map((x) => ({ x })));
      expect(computed).toBe(5);
      expect(cache.inFlight()).toEqual({});
    } finally {
      live.kill();
      cache.close();
    }
  });

  it("leaves a batch marked when its computation never returns (the process was killed mid-batch)", async () => {
    const cache = EvidenceCache.open(mkdtempSync(join(tmpdir(), "calibkit-inflight-")));
    try {
      const failing = cachedRows([0, 1, 2, 3, 4], {
        cache, model: "m", batch: 2, key: (i) => key(i),
        compute: async (xs) => {
          if (xs.includes(2)) throw new Error("stopped");
          return xs.map((x) => ({ x }));
        },
      });
      await expect(failing).rejects.toThrow("stopped");
      expect(cache.writers()).toEqual({ [String(process.pid)]: 2 });
      expect(cache.inFlight()).toEqual({ [String(process.pid)]: 2 });
    } finally {
      cache.close();
    }
  });
});
