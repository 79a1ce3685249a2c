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
  it("shares common tokens and marks the positions whose distribution is scored", () => {
    const paths = [
      { tokens: [1, 2, 3, 4, 5], scoreFrom: 4 },
      { tokens: [1, 2, 3, 4, 6, 7], scoreFrom: 4 },
      { tokens: [1, 2, 9, 8], scoreFrom: 3 },
    ];
    const { roots, layouts } = buildTokenTrie(paths, 2);
    expect(roots.map((r) => r.tokens)).toEqual([[3, 4], [9, 8]]);
    expect(roots[0]!.children.map((c) => c.tokens)).toEqual([[5], [6, 7]]);
    // Token 5 and 6 are predicted from offset 1 of [3, 4]; 7 from offset 0 of [6, 7]; 8 from offset 0 of [9, 8].
    expect([...roots[0]!.needed]).toEqual([1]);
    expect([...roots[0]!.children[1]!.needed]).toEqual([0]);
    expect([...roots[1]!.needed]).toEqual([0]);
    expect(layouts[1]!.positions.map(([n, o]) => `${n.tokens[0]}:${o}`)).toEqual(["3:0", "3:1", "6:0", "6:1"]);
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
