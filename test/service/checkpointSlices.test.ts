// A checkpoint is encoded in slices, the event loop turning between them, and holds the profile as it was when
// it was asked for, even when batches are applied to the profile meanwhile (their rows appended to the same pool
// arrays, or those arrays replaced by larger ones). Pool columns grow with their copies made ahead of need,
// and hold exactly the rows appended.
import { describe, expect, it } from "vitest";
import type { ExampleRecord } from "../../src/api/index.js";
import { reserve } from "../../src/service/engine/columnGrowth.js";
import { currentPools, probabilityPool } from "../../src/service/engine/pools.js";
import { decodeCheckpoint, encodeCheckpoint } from "../../src/service/profiles/checkpoint.js";
import { feedPools } from "../../src/service/profiles/eagerPools.js";
import { ProfileState } from "../../src/service/profiles/profileState.js";
import type { ProfileMeta } from "../../src/service/profiles/records.js";
import { CLIENT_BACKEND, lcg, setExample } from "./helpers.js";

const meta: ProfileMeta = { name: "cp", backend: CLIENT_BACKEND, method: "LAC", alpha: 0.1, strict_fingerprint: false, created_at: "2026-01-01T00:00:00.000Z" };
/** Byte-for-byte equality of two columns. */
const same = (a: Float64Array | Int32Array, b: Float64Array | Int32Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function addBatch(state: ProfileState, rand: () => number, count: number, key?: string): void {
  const examples = Array.from({ length: count }, (_, i) => setExample(rand, state.n + i)) as ExampleRecord[];
  state.applyEvent(state.seq + 1, { t: "examples", at: "2026-01-01T00:00:00.000Z", examples, ...(key ? { idempotency: { key, sha256: key } } : {}) });
  feedPools(state, examples);
}

describe("a checkpoint", () => {
  it("is encoded over several turns of the event loop and holds the state of the call, whatever is applied meanwhile", async () => {
    const rand = lcg(11);
    const state = new ProfileState(meta);
    for (let b = 0; b < 40; b++) addBatch(state, rand, 5_000, `key-${b}`);
    const names = ["A", "B", "C", "D"];
    const pool = () => probabilityPool(state, names, { grouped: false });
    const before = { n: state.n, seq: state.seq, view: state.view(), rows: pool().rows.slice(), labels: pool().labels.slice(), positions: pool().positions.slice() };

    const encoding = encodeCheckpoint(state);
    let turns = 0;
    let done = false;
    void encoding.then(() => (done = true));
    // Batches applied while it is encoded: rows appended to the pool's arrays, and once past their room, new arrays.
    while (!done) {
      await turn();
      turns++;
      if (turns <= 30) addBatch(state, rand, 2_000, `later-${turns}`);
    }
    // 200,000 rows of 4 options are 8 MB of columns: several slices of 1 MiB.
    expect(turns).toBeGreaterThan(2);
    expect(state.n).toBeGreaterThan(before.n);

    const checkpoint = await encoding;
    expect(checkpoint.n).toBe(before.n);
    expect(checkpoint.seq).toBe(before.seq);
    const restored = decodeCheckpoint(meta, checkpoint.data);
    expect(restored.n).toBe(before.n);
    expect(restored.view()).toEqual(before.view);
    expect(restored.idempotency.has("key-39")).toBe(true);
    expect(restored.idempotency.has("later-1")).toBe(false);
    const [kept] = currentPools(restored);
    expect(kept!.n).toBe(before.labels.length);
    expect(same(kept!.rows.subarray(0, kept!.n * 4), before.rows)).toBe(true);
    expect(same(kept!.labels.subarray(0, kept!.n), before.labels)).toBe(true);
    expect(same(kept!.positions.subarray(0, kept!.n), before.positions)).toBe(true);
  }, 60_000);
});

describe("a pool column", () => {
  it("grown by reserve, its successor filled between batches or not at all, holds exactly what was appended", async () => {
    const rand = lcg(5);
    for (const turnsBetween of [0, 1, 3]) {
      let column = new Float64Array(0);
      const expected: number[] = [];
      let used = 0;
      for (let batch = 0; batch < 400; batch++) {
        const count = 1 + Math.floor(rand() * 5_000);
        column = reserve(column, used, used + count);
        for (let i = 0; i < count; i++) {
          const x = rand();
          column[used++] = x;
          expected.push(x);
        }
        for (let t = 0; t < turnsBetween; t++) await turn();
      }
      expect(column.length).toBeGreaterThanOrEqual(used);
      expect(same(column.subarray(0, used), Float64Array.from(expected))).toBe(true);
    }
  }, 60_000);
});
