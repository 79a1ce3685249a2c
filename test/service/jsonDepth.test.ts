// The depth check's shortcut: the nesting read from a body's text must clear exactly the bodies the walk over
// the parsed value clears (brackets inside strings, escaped quotes and backslashes do not count).
import { describe, expect, it } from "vitest";
import { checkJsonDepth, MAX_JSON_DEPTH, openingsUpTo, textNesting, tooDeepPath } from "../../src/service/http/jsonDepth.js";

const nest = (levels: number, inner: string) => "[".repeat(levels) + inner + "]".repeat(levels);

describe("textNesting", () => {
  it("counts the nesting of objects and arrays, not of brackets inside strings", () => {
    const texts = [
      `{}`, `[]`, `"[[{"`, `{"a":"]]}}","b":[1,{"c":"\\"[{"}]}`, `["\\\\", [["\\\\\\"[" ]]]`,
      `{"é[": ["ü{", {"x": "\\u005b"}]}`, nest(3, `{"k":"[[["}`),
    ];
    for (const text of texts) {
      let walk = 0;
      const depthOf = (v: unknown, d: number): void => {
        if (v === null || typeof v !== "object") return;
        walk = Math.max(walk, d + 1);
        for (const x of Object.values(v as object)) depthOf(x, d + 1);
      };
      depthOf(JSON.parse(text), 0);
      expect(textNesting(Buffer.from(text)), text).toBe(walk);
    }
  });

  it("clears a body exactly when the walk finds nothing too deep", () => {
    for (const levels of [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, MAX_JSON_DEPTH + 2]) {
      for (const inner of ["1", `"]]]"`, `{"a":"\\"{"}`]) {
        const text = `{"examples":${nest(levels - 1, inner)}}`;
        const cleared = textNesting(Buffer.from(text)) <= MAX_JSON_DEPTH;
        expect(cleared, `${levels} ${inner}`).toBe(tooDeepPath(JSON.parse(text)) === undefined);
      }
    }
  });
});

describe("openingsUpTo", () => {
  it("counts the opening brackets (strings' too) up to one past the limit, a bound on the nesting", () => {
    const texts = [`{}`, `"[[{"`, `{"a":"]]}}","b":[1,{"c":"\\"[{"}]}`, nest(3, `{"k":"[[["}`), `[${"{},".repeat(150)}{}]`];
    for (const text of texts) {
      const all = [...text].filter((c) => c === "{" || c === "[").length;
      expect(openingsUpTo(Buffer.from(text), MAX_JSON_DEPTH), text).toBe(Math.min(all, MAX_JSON_DEPTH + 1));
      expect(openingsUpTo(Buffer.from(text), 1_000_000)).toBeGreaterThanOrEqual(textNesting(Buffer.from(text)));
    }
  });

  it("lets checkJsonDepth clear a shallow body of many brackets and refuse a deep one", () => {
    const wide = `{"examples":[${Array.from({ length: 300 }, () => `{"context":"[{","label":"a"}`).join(",")}]}`;
    expect(() => checkJsonDepth(JSON.parse(wide), Buffer.from(wide))).not.toThrow();
    const deep = `{"examples":[${nest(MAX_JSON_DEPTH + 1, "1")}]}`;
    expect(() => checkJsonDepth(JSON.parse(deep), Buffer.from(deep))).toThrow(/examples\.0/);
  });
});
