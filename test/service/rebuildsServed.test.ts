// Which calibration answers while a rebuilt one (RAPS, per-option Venn–Abers) is being built in the background:
// the previous one, at once, and after the build the new one — exactly what a state that never saw the earlier
// version answers (its calibrations built from scratch on the same prefix).
import { describe, expect, it } from "vitest";
import type { ExampleRecord } from "../../src/api/index.js";
import { evaluate } from "../../src/service/engine/evaluate.js";
import { nextPrefix, rebuildPrefix } from "../../src/service/engine/rebuilds.js";
import { ProfileState } from "../../src/service/profiles/profileState.js";
import { lcg, setExample } from "./helpers.js";

const at = "2026-01-02T00:00:00.000Z";
const profile = () => new ProfileState({ name: "rp", backend: { provider: "client_evidence" } as never, method: "RAPS", alpha: 0.1, strict_fingerprint: false, created_at: at });
const request = {
  context: "c", backend: { provider: "client_evidence", name: "m", access_level: "L1" },
  queries: Object.fromEntries(Array.from({ length: 4 }, (_, q) => [`s${q}`, {
    type: "set", instructions: "Pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "rp",
    evidence: { option_probabilities: { A: 0.4 - q * 0.1, B: 0.3, C: 0.2, D: 0.1 + q * 0.1 } },
  }])),
};
type Response = { status: number; body: { answers: Record<string, { set: string[]; venn_abers: Record<string, number[]>; guarantee: { n: number; profile_version: number } }> } };
const ask = (state: ProfileState) => evaluate(request as never, { profiles: { get: () => state }, backends: {}, humanQueue: {} } as never, "req_same") as Response | Promise<Response>;

describe("a rebuilt calibration being built", () => {
  it("leaves the previous one answering without waiting, then answers as one built from scratch", async () => {
    const rand = lcg(42);
    const batch = (from: number, count: number) => Array.from({ length: count }, (_, i) => setExample(rand, from + i) as ExampleRecord);
    const first = batch(0, 6_000);
    const second = batch(6_000, 4_000); // more than a step: the prefix it needs was not started before it
    expect(rebuildPrefix(10_000)).toBeGreaterThan(nextPrefix(6_000));
    const live = profile();
    live.apply({ t: "examples", at, examples: first });
    // The first query finds no calibration: it waits for the background build (a promise, not a blocked loop).
    const pending = ask(live);
    expect(pending).toBeInstanceOf(Promise);
    const before = await pending;
    expect(before.status).toBe(200);
    // RAPS keeps a fifth of the prefix for tuning: n says which prefix answered.
    const nOf = (m: number) => m - Math.floor(m * 0.2);
    expect(before.body.answers.s0!.guarantee.n).toBe(nOf(rebuildPrefix(6_000)));

    live.apply({ t: "examples", at, examples: second });
    const during = ask(live);
    expect(during).not.toBeInstanceOf(Promise); // answered in the same turn: nothing waited for the build
    const duringBody = (during as Response).body;
    // The latest calibration built: the prefix version 1 served, or the next one, started in the background then.
    for (const answer of Object.values(duringBody.answers)) {
      expect(answer.guarantee.profile_version).toBe(2);
      expect([nOf(rebuildPrefix(6_000)), nOf(nextPrefix(6_000))]).toContain(answer.guarantee.n);
    }

    // A state that never saw version 1 builds every calibration from scratch on the same prefix.
    const scratch = profile();
    scratch.apply({ t: "examples", at, examples: first });
    scratch.apply({ t: "examples", at, examples: second });
    const expected = JSON.stringify(await ask(scratch));
    // Once the background builds (RAPS, then the four Venn–Abers fits) are done, the live state answers the same bytes.
    let after = JSON.stringify(ask(live));
    for (let i = 0; i < 5_000 && after !== expected; i++) {
      await new Promise((r) => setImmediate(r));
      after = JSON.stringify(ask(live));
    }
    expect(after).toBe(expected);
    expect(JSON.parse(after).body.answers.s0.guarantee.n).toBe(nOf(rebuildPrefix(10_000)));
    expect(JSON.stringify(JSON.parse(after).body.answers)).not.toBe(JSON.stringify(duringBody.answers));
  }, 60_000);
});
