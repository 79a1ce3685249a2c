// The rebuild prefix of calibrations that cannot be extended (Venn–Abers, RAPS): a function of the pool size
// alone, never decreasing, and built in the background a step before any request needs it.
import { describe, expect, it } from "vitest";
import { ProfileState } from "../../src/service/profiles/profileState.js";
import { MIN_STEP, nextPrefix, rebuildPrefix, rebuilt, startRebuilds, WHOLE_POOL_UP_TO } from "../../src/service/engine/rebuilds.js";

const meta = { name: "p", backend: { provider: "client_evidence" }, method: "LAC", alpha: 0.1, strict_fingerprint: false, created_at: "2026-01-01T00:00:00.000Z" } as never;

/**
 * A profile whose builds (three turns each) record whether a request or the background ran them; `ask` is a
 * request for the prefix of n rows. With `poolSize`, applied batches know the pool's size (startRebuilds).
 */
function recordedBuilds(poolSize?: () => number) {
  const state = new ProfileState(meta);
  const built: { m: number; by: "request" | "background" }[] = [];
  let inRequest = false;
  const start = function* (m: number) {
    for (let i = 0; i < 3; i++) yield;
    built.push({ m, by: inRequest ? "request" : "background" });
    return m;
  };
  const ask = (n: number) => {
    inRequest = true;
    try {
      return poolSize ? rebuilt(state, "k", n, start, () => ({ n: poolSize(), start })) : rebuilt(state, "k", n, start);
    } finally {
      inRequest = false;
    }
  };
  return { state, built, ask };
}

describe("rebuild prefix", () => {
  it("is the whole pool while small, then lags the pool by one to two steps and never decreases", () => {
    let last = 0;
    for (let n = 0; n < 3_000_000; n += 1 + Math.floor(n / 997)) {
      const m = rebuildPrefix(n);
      if (n <= WHOLE_POOL_UP_TO) expect(m).toBe(n);
      else expect(n - m).toBeLessThanOrEqual(Math.max(2 * MIN_STEP, n / 4));
      expect(m).toBeLessThanOrEqual(n);
      expect(m).toBeGreaterThanOrEqual(last);
      last = m;
    }
  });

  it("moves at most once per batch of up to MIN_STEP rows, to a prefix a request at the version before could start", () => {
    let moves = 0;
    for (let n = WHOLE_POOL_UP_TO; n < 200_000; n += 97) {
      for (const b of [1, 500, MIN_STEP]) {
        const m = rebuildPrefix(n + b);
        // Either the prefix served now, or the one started in the background at n.
        expect([rebuildPrefix(n), nextPrefix(n)]).toContain(m);
      }
      if (rebuildPrefix(n + 97) !== rebuildPrefix(n)) moves++;
    }
    // Ingestion from 2,048 to 200,000 rows in batches of 1,000 rebuilds for fewer than a quarter of its batches.
    expect(moves).toBeLessThan((200_000 - WHOLE_POOL_UP_TO) / 1000 / 4);
  });

  it("builds the next prefix in the background, so that the request that needs it finds it ready", async () => {
    const { built, ask } = recordedBuilds();
    const n = 100_000;
    expect(ask(n)).toBe(rebuildPrefix(n));
    expect(built).toEqual([{ m: rebuildPrefix(n), by: "request" }]);
    // The pool grows by a step: the prefix it then needs was started in the background by the first request.
    await new Promise((r) => setTimeout(r, 50));
    const later = n + (nextPrefix(n) - rebuildPrefix(n)); // one step on
    expect(rebuildPrefix(later)).toBeGreaterThan(rebuildPrefix(n));
    expect(ask(later)).toBe(rebuildPrefix(later));
    expect(built[1]).toEqual({ m: rebuildPrefix(later), by: "background" });
  });

  it("starts the builds a batch needs when it is applied, so a request after several batches without one finds them", async () => {
    let poolSize = 100_000;
    const { state, built, ask } = recordedBuilds(() => poolSize);
    expect(ask(poolSize)).toBe(rebuildPrefix(poolSize));
    // Several steps of batches, no request between them; each applied batch starts what its size needs.
    for (let b = 0; b < 40; b++) {
      poolSize += 1000;
      startRebuilds(state);
      await new Promise((r) => setTimeout(r, 5));
    }
    // The last batch's build runs a turn or two of the event loop later (later still on a loaded machine).
    for (let i = 0; i < 400 && !built.some((b) => b.m === rebuildPrefix(poolSize)); i++) await new Promise((r) => setTimeout(r, 5));
    const before = built.length;
    expect(ask(poolSize)).toBe(rebuildPrefix(poolSize));
    expect(built.length).toBe(before); // nothing built by the request
    expect(built.filter((b) => b.m === rebuildPrefix(poolSize))).toEqual([{ m: rebuildPrefix(poolSize), by: "background" }]);
  });
});
