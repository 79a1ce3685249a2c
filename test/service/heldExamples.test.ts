// A profile holds its examples as one JSON string per batch, parsed again when asked for (heldExamples.ts): the
// examples, the listing, the calibration pools and the claim pool it gives are exactly those of the examples as
// posted — through the parsed batches kept, through batches parsed again after they were let go, in stored and
// random order, from a batch's own JSON or from a stored event record, and after a start from a checkpoint once
// the batches before it are read back.
import { describe, expect, it } from "vitest";
import type { ExampleRecord } from "../../src/api/index.js";
import { claimExamples, labelledClaims } from "../../src/service/engine/claimCalibration.js";
import { claimScores } from "../../src/service/engine/claimScores.js";
import { probabilityPool } from "../../src/service/engine/pools.js";
import { HeldExamples } from "../../src/service/profiles/heldExamples.js";
import { ProfileState } from "../../src/service/profiles/profileState.js";
import type { ExamplesRecord } from "../../src/service/profiles/records.js";
import { lcg, setExample } from "./helpers.js";

const meta = { name: "held", backend: { provider: "client_evidence" } as never, method: "LAC", alpha: 0.1, strict_fingerprint: false, created_at: "2026-01-01T00:00:00.000Z" };

function example(rand: () => number, i: number): ExampleRecord {
  if (rand() < 0.3) {
    return {
      context: `claims ${i}`,
      label: { claims: [{ text: "The sky is blue.", correct: true }, { text: `Fact ${i % 7} holds.`, correct: rand() < 0.7 }] },
      metadata: { evidence: { samples: ["The sky is blue.", `Fact ${i % 7} holds.`, rand() < 0.5 ? `Fact ${i % 7} holds.` : "Nothing."] } },
    } as ExampleRecord;
  }
  return setExample(rand, i) as ExampleRecord;
}

/** Batches of uneven sizes (1 to 97 examples): many more than the parsed batches kept. */
function batches(seed: number, count: number): ExampleRecord[][] {
  const rand = lcg(seed);
  let i = 0;
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(rand() * 97) }, () => example(rand, i++)));
}

const record = (examples: ExampleRecord[], k: number): ExamplesRecord => ({ t: "examples", at: `2026-01-01T00:00:${String(k % 60).padStart(2, "0")}.000Z`, examples });

describe("examples held as JSON per batch", () => {
  it("gives every example as posted, in stored and random order, from batch JSON and from event records", () => {
    const all = batches(3, 60);
    const flat = all.flat();
    const held = new HeldExamples();
    all.forEach((batch, k) => {
      const text = JSON.stringify(record(batch, k));
      held.append(batch.map((e) => structuredClone(e)), k % 2 === 0 ? { text, count: batch.length, inRecord: true } : undefined);
    });
    expect(held.n).toBe(flat.length);
    for (let p = 0; p < flat.length; p++) expect(held.at(p)).toEqual(flat[p]);
    const rand = lcg(11);
    for (let t = 0; t < 500; t++) {
      const p = Math.floor(rand() * flat.length);
      expect(held.at(p)).toEqual(flat[p]);
    }
    for (const [from, to] of [[0, 1], [5, 300], [97, 98], [flat.length - 3, flat.length + 50], [flat.length, flat.length + 1]] as const) {
      expect(held.slice(from, to)).toEqual(flat.slice(from, to));
    }
    expect(() => held.at(flat.length)).toThrow(RangeError);
    expect(() => held.append(all[0]!, { text: "[]", count: 0, inRecord: false })).toThrow(/JSON of 0/);
  });

  it("starts after a checkpoint without the examples before it, and holds them all once they are read back", () => {
    const all = batches(5, 30);
    const before = all.slice(0, 12);
    const after = all.slice(12);
    const held = new HeldExamples();
    const n0 = before.flat().length;
    held.startAt(n0);
    after.forEach((batch) => held.append(batch));
    expect(held.complete).toBe(false);
    expect(held.first).toBe(n0);
    expect(held.at(n0)).toEqual(after[0]![0]);
    expect(() => held.at(n0 - 1)).toThrow(RangeError);
    held.prepend(before.map((batch, k) => ({ text: JSON.stringify(record(batch, k)), count: batch.length, inRecord: true })));
    expect(held.complete).toBe(true);
    expect(held.slice(0, held.n)).toEqual(all.flat());
    expect(() => new HeldExamples().prepend([{ text: "[1]", count: 1, inRecord: false }])).toThrow(/gave 1 examples/);
  });

  it("feeds the calibration pools and the claim pool exactly what the examples as posted give", () => {
    const all = batches(9, 40);
    const flat = all.flat();
    const state = new ProfileState(meta);
    all.forEach((batch, k) => {
      const r = record(batch, k);
      // As the store hands them: the record parsed from its JSON, and the JSON kept.
      const text = JSON.stringify(r);
      state.applyEvent(k + 1, JSON.parse(text) as ExamplesRecord, { text, count: batch.length, inRecord: true });
      // Pools looked at every few batches: each scans on from where it stopped, over batches parsed again.
      if (k % 7 === 3) probabilityPool(state, ["A", "B", "C", "D"], { grouped: false });
    });
    expect(state.n).toBe(flat.length);
    expect(state.examplesIn(0, state.n)).toEqual(flat);

    const pool = probabilityPool(state, ["A", "B", "C", "D"], { grouped: false });
    const sets = flat.map((e, p) => [e, p] as const).filter(([e]) => typeof e.label === "string");
    expect(pool.n).toBe(sets.length);
    expect(Array.from(pool.positions)).toEqual(sets.map(([, p]) => p));
    expect(Array.from(pool.labels)).toEqual(sets.map(([e]) => ["A", "B", "C", "D"].indexOf(e.label as string)));
    const probabilities = (e: ExampleRecord) => (e.metadata!.evidence as { option_probabilities: Record<string, number> }).option_probabilities;
    expect(Array.from(pool.rows)).toEqual(sets.flatMap(([e]) => ["A", "B", "C", "D"].map((o) => probabilities(e)[o])));

    const claims = claimExamples(state);
    const expected = flat.flatMap((e) => {
      const labelled = labelledClaims(e.label);
      if (!labelled) return [];
      const { scores } = claimScores(e.metadata!.evidence as never, labelled.map((c) => c.text));
      return [labelled.map((c, i) => ({ score: scores[i]!, correct: c.correct }))];
    });
    expect(claims.n).toBe(expected.length);
    expect(claims.claims.slice(0, claims.n)).toEqual(expected);
  });
});
