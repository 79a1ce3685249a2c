// The rebuild prefix of calibrations that cannot be extended (Venn–Abers, RAPS): a function of the pool size
// alone, never decreasing, and built in the background a step before any request needs it; a request while it is
// being built is answered by the latest one built, and only a first one waits (for the background, not on it).
import { describe, expect, it } from "vitest";
import { ProfileState } from "../../src/service/profiles/profileState.js";
import { CalibrationPending, MIN_STEP, nextPrefix, rebuildPrefix, rebuilt, startRebuilds, whenBuilt, WHOLE_POOL_UP_TO } from "../../src/service/engine/rebuilds.js";

const meta = { name: "p", backend: { provider: "client_evidence" }, method: "LAC", alpha: 0.1, strict_fingerprint: false, created_at: "2026-01-01T00:00:00.000Z" } as never;

/**
 * A profile whose builds record whether a request or the background ran them; `ask` is a request for the prefix
 * of n rows (`exact`: as audits and monitors ask). A build takes three turns, or, while `hold.on`, as many as it
 * is held. With `poolSize`, applied batches know the pool's size (startRebuilds).
 */
function recordedBuilds(poolSize?: () => number) {
  const state = new ProfileState(meta);
  const built: { m: number; by: "request" | "background" }[] = [];
  const hold = { on: false };
  let inRequest = false;
  const start = function* (m: number) {
    for (let i = 0; i < 3 || hold.on; i++) yield;
    built.push({ m, by: inRequest ? "request" : "background" });
    return m;
  };
  const ask = (n: number, exact = false) => {
    inRequest = true;
    try {
      return rebuilt(state, "k", n, start, poolSize ? () => ({ n: poolSize(), start }) : undefined, exact);
    } finally {
      inRequest = false;
    }
  };
  return { state, built, hold, ask, waitFor: (n: number) => whenBuilt(() => ask(n)) };
}

const turn = () => new Promise((r) => setImmediate(r));

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
    const { built, ask, waitFor } = recordedBuilds();
    const n = 100_000;
    expect((await waitFor(n)).value).toBe(rebuildPrefix(n));
    expect(built).toEqual([{ m: rebuildPrefix(n), by: "background" }]);
    // The pool grows by a step: the prefix it then needs was started in the background by the first request.
    await new Promise((r) => setTimeout(r, 50));
    const later = n + (nextPrefix(n) - rebuildPrefix(n)); // one step on
    expect(rebuildPrefix(later)).toBeGreaterThan(rebuildPrefix(n));
    expect(ask(later)).toEqual({ value: rebuildPrefix(later), prefix: rebuildPrefix(later) });
    expect(built[1]).toEqual({ m: rebuildPrefix(later), by: "background" });
  });

  it("answers a first request with no build yet once the background has built it, other turns going on meanwhile", async () => {
    const { built, hold, ask, waitFor } = recordedBuilds();
    const n = 50_000;
    expect(() => ask(n)).toThrow(CalibrationPending);
    hold.on = true;
    const answer = waitFor(n);
    let turns = 0;
    let done = false;
    void answer.then(() => (done = true));
    for (; turns < 20; turns++) await turn(); // the event loop turns while the build is held: nothing waits on it
    expect(done).toBe(false);
    hold.on = false;
    expect(await answer).toEqual({ value: rebuildPrefix(n), prefix: rebuildPrefix(n) });
    expect(built).toEqual([{ m: rebuildPrefix(n), by: "background" }]);
    // Small pools are built by the request itself, at once (a few ms at most).
    const small = recordedBuilds();
    expect(small.ask(WHOLE_POOL_UP_TO)).toEqual({ value: WHOLE_POOL_UP_TO, prefix: WHOLE_POOL_UP_TO });
    expect(small.built).toEqual([{ m: WHOLE_POOL_UP_TO, by: "request" }]);
  });

  it("answers a request during a running build with the previous one, at once, and the next after its end with the new one", async () => {
    const { state, built, hold, ask, waitFor } = recordedBuilds();
    const n0 = 40_000;
    await waitFor(n0);
    // A batch larger than a step: the prefix it needs was not started before; its build is held.
    hold.on = true;
    const n1 = n0 + 30_000;
    expect(rebuildPrefix(n1)).toBeGreaterThan(nextPrefix(n0));
    const epoch = state.calibrationEpoch;
    for (let i = 0; i < 5; i++) {
      expect(ask(n1)).toEqual({ value: rebuildPrefix(n0), prefix: rebuildPrefix(n0) });
      await turn();
    }
    expect(built.map((b) => b.m)).toEqual([rebuildPrefix(n0)]); // no request ran the new build
    expect(state.calibrationEpoch).toBe(epoch);
    hold.on = false;
    for (let i = 0; i < 400 && !built.some((b) => b.m === rebuildPrefix(n1)); i++) await turn();
    expect(built).toContainEqual({ m: rebuildPrefix(n1), by: "background" });
    // Its end renews the caches of the version that was answered by the earlier build.
    expect(state.calibrationEpoch).toBe(epoch + 1);
    expect(ask(n1)).toEqual({ value: rebuildPrefix(n1), prefix: rebuildPrefix(n1) });
  });

  it("builds the version's own prefix on the request when asked exactly (audits, monitors)", async () => {
    const { built, hold, ask, waitFor } = recordedBuilds();
    await waitFor(40_000);
    hold.on = true;
    const n1 = 70_000;
    expect(ask(n1).prefix).toBe(rebuildPrefix(40_000));
    hold.on = false;
    expect(ask(n1, true)).toEqual({ value: rebuildPrefix(n1), prefix: rebuildPrefix(n1) });
    expect(built.at(-1)).toEqual({ m: rebuildPrefix(n1), by: "request" });
  });

  it("starts the builds a batch needs when it is applied, so a request after several batches without one finds them", async () => {
    let poolSize = 100_000;
    const { state, built, ask, waitFor } = recordedBuilds(() => poolSize);
    expect((await waitFor(poolSize)).value).toBe(rebuildPrefix(poolSize));
    // Several steps of batches, no request between them; each applied batch starts what its size needs.
    for (let b = 0; b < 40; b++) {
      poolSize += 1000;
      startRebuilds(state);
      await new Promise((r) => setTimeout(r, 5));
    }
    // The last batch's build runs a turn or two of the event loop later (later still on a loaded machine).
    for (let i = 0; i < 400 && !built.some((b) => b.m === rebuildPrefix(poolSize)); i++) await new Promise((r) => setTimeout(r, 5));
    const before = built.length;
    expect(ask(poolSize).value).toBe(rebuildPrefix(poolSize));
    expect(built.length).toBe(before); // nothing built by the request
    expect(built.filter((b) => b.m === rebuildPrefix(poolSize))).toEqual([{ m: rebuildPrefix(poolSize), by: "background" }]);
  });
});
