import { describe, expect, it } from "vitest";
import { AccessLevelError, resolveAccessLevel, seededRng } from "../../src/adapters/index.js";
import { buildTokenTrie } from "../../src/adapters/tokenTrie.js";
import { firstTokenFromTopK } from "../../src/adapters/openAILogprobs.js";

describe("resolveAccessLevel", () => {
  it("auto takes the detected level and a lower hint is served at that level", () => {
    expect(resolveAccessLevel("L3", "auto")).toBe("L3");
    expect(resolveAccessLevel("L3", "logprobs")).toBe("L1");
    expect(resolveAccessLevel("L3", "sampling")).toBe("L0");
  });
  it("a hint above the detected level is a typed error naming both levels", () => {
    try {
      resolveAccessLevel("L1", "exact");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AccessLevelError);
      const e = err as AccessLevelError;
      expect([e.code, e.status, e.requested, e.detected]).toEqual(["ACCESS_LEVEL_UNAVAILABLE", 502, "L3", "L1"]);
      expect(e.message).toMatch(/L3.*L1/);
    }
  });
});

describe("buildTokenTrie", () => {
  it("shares common tokens, leaves out each path's last token and records where each scored token is predicted", () => {
    const paths = [
      { tokens: [1, 2, 3, 4, 5], scoreFrom: 4 },
      { tokens: [1, 2, 3, 4, 6, 7], scoreFrom: 4 },
      { tokens: [1, 2, 9, 8], scoreFrom: 3 },
      { tokens: [1, 2, 3, 4], scoreFrom: 4 },
    ];
    const { roots, scoredAt } = buildTokenTrie(paths, 2);
    // [3, 4] then 6 (7 is last, never evaluated); 5 adds nothing; [9] alone (8 is last); the fourth scores nothing.
    expect(roots.map((r) => r.tokens)).toEqual([[3, 4], [9]]);
    expect(roots[0]!.children.map((c) => c.tokens)).toEqual([[6]]);
    // 5 and 6 are predicted from offset 1 of [3, 4]; 7 from offset 0 of [6]; 8 from offset 0 of [9].
    expect([...roots[0]!.wanted].map(([o, t]) => [o, [...t]])).toEqual([[1, [5, 6]]]);
    expect([...roots[0]!.children[0]!.wanted].map(([o, t]) => [o, [...t]])).toEqual([[0, [7]]]);
    expect([...roots[1]!.wanted].map(([o, t]) => [o, [...t]])).toEqual([[0, [8]]]);
    expect(scoredAt.map((at) => at.map(([n, o]) => `${n.tokens[0]}:${o}`))).toEqual([["3:1"], ["3:1", "6:0"], ["9:0"], []]);
  });
  it("a path that ends inside another's node is located there without splitting it", () => {
    const paths = [{ tokens: [1, 5, 6, 7, 8], scoreFrom: 2 }, { tokens: [1, 5, 6], scoreFrom: 2 }];
    const { roots, scoredAt } = buildTokenTrie(paths, 1);
    expect(roots.map((r) => r.tokens)).toEqual([[5, 6, 7]]);
    expect(scoredAt[1]!.map(([n, o]) => [n.tokens, o])).toEqual([[[5, 6, 7], 0]]);
    expect([...roots[0]!.wanted.keys()]).toEqual([0, 1, 2]);
  });
});

describe("seeded sampling helpers", () => {
  it("the same seed gives the same stream, another seed another", () => {
    const a = seededRng(7), b = seededRng(7), c = seededRng(8);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
  });
  it("L1 first-token approximation: longest matching top-k token, tail mass shared by the rest", () => {
    const lp = firstTokenFromTopK({ " to": Math.log(0.5), " toy": Math.log(0.3) }, [" toys", " cat", " dog"]);
    expect(Math.exp(lp[0]!)).toBeCloseTo(0.3, 12);
    expect(Math.exp(lp[1]!)).toBeCloseTo(0.1, 12);
    expect(lp[2]).toBe(lp[1]);
  });
});
