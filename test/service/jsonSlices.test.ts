// The sliced parser of large request bodies returns what JSON.parse returns, refuses what it refuses, and
// lets the event loop run between slices.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonMembersError, MAX_OBJECT_MEMBERS, parseJsonInSlices, type SlicedParse } from "../../src/service/http/jsonSlices.js";

const parse = (text: string, leafChars = 8) =>
  new Promise<SlicedParse>((ok, fail) => parseJsonInSlices(text, (err, parsed) => (err ? fail(err) : ok(parsed!)), { leafChars }));

describe("parseJsonInSlices", () => {
  it("equals JSON.parse on arbitrary JSON, spaced or not, with every container walked", async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue(), fc.boolean(), async (value, spaced) => {
      const text = JSON.stringify(value, null, spaced ? 2 : undefined);
      const { value: got } = await parse(text, 4);
      expect(got).toStrictEqual(JSON.parse(text));
    }), { numRuns: 300 });
  });

  it("keeps __proto__ an own key and the last of duplicate keys, as JSON.parse does", async () => {
    const text = '{"__proto__": {"polluted": true}, "a": 1, "a": [2, 3], "b": {"c": null}}';
    const { value } = await parse(text, 2);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value).toStrictEqual(JSON.parse(text));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses what JSON.parse refuses", async () => {
    for (const bad of ['{"a": 1,}', '[1 2]', '{"a" 1}', '{"a": [1}', '[1]]', '{"a": tru}', '{"a": "x}', '', '  ', '[1] x', '{a: 1}', '[,1]', '{"a": 1 "b": 2}']) {
      expect(() => JSON.parse(bad)).toThrow();
      await expect(parse(bad, 2), bad).rejects.toThrow();
    }
  });

  it("reports the nesting of the text", async () => {
    expect((await parse('{"a": [[1], {"b": {"c": []}}], "d": "[[[["}', 2)).nesting).toBe(5);
    expect((await parse("3")).nesting).toBe(0);
  });

  it("parses a 16 MiB body in slices, with timers firing in between", async () => {
    const queries: Record<string, unknown> = {};
    for (let q = 0; q < 450; q++) {
      const p: Record<string, number> = {};
      for (let i = 0; i < 1000; i++) p[`option ${i}`] = 1 / 1000;
      queries[`q${q}`] = { type: "set", options: Object.fromEntries(Object.keys(p).map((k) => [k, "text"])), evidence: { option_probabilities: p } };
    }
    const text = JSON.stringify({ queries });
    expect(text.length).toBeGreaterThan(16e6);
    let ticks = 0;
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 1);
    const { value } = await new Promise<SlicedParse>((ok, fail) => parseJsonInSlices(text, (err, parsed) => (err ? fail(err) : ok(parsed!))));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(10);
    // The longest gap between two timer turns: a slice plus one native parse of a leaf and what the runtime adds.
    expect(longest).toBeLessThan(200);
    expect(value).toStrictEqual(JSON.parse(text));
  });
});

describe("the member bound of a large body", () => {
  it("refuses an object of more than MAX_OBJECT_MEMBERS members while parsing, naming its path", async () => {
    const big = Object.fromEntries(Array.from({ length: MAX_OBJECT_MEMBERS + 1 }, (_, i) => [`k${i}`, i]));
    const err = await parse(JSON.stringify({ queries: { q1: { options: big } }, list: [big] }), 64).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonMembersError);
    expect((err as JsonMembersError).path).toEqual(["queries", "q1", "options"]);
    const inList = await parse(JSON.stringify({ list: [1, big] }), 64).catch((e: unknown) => e);
    expect((inList as JsonMembersError).path).toEqual(["list", "1"]);
    const fine = Object.fromEntries(Array.from({ length: MAX_OBJECT_MEMBERS }, (_, i) => [`k${i}`, i]));
    expect((await parse(JSON.stringify({ fine }), 64)).value).toEqual({ fine });
  });
});
