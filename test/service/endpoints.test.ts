// Black-box: a real `calibkit serve` process driven through the EvaluationClient. Every endpoint, the profile
// lifecycle collecting → serving → stale → serving, 424 with heuristic answers, fingerprints, monitors with
// alerts, audits, idempotent example batches, a judge cascade escalating to the human queue, and restarts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvaluationClient, InsufficientCalibrationError, UnprocessableError, HttpError } from "../../src/client/index.js";
import { calibrateSet, predictSet, rngFromString } from "../../src/conformal/index.js";
import { binaryExample, CLIENT_BACKEND, lcg, setExample, startServer, type Spawned } from "./helpers.js";

let server: Spawned & { data: string };
let client: EvaluationClient;
const rand = lcg(42);

const setQuery = (evidence: Record<string, number>, extra: Record<string, unknown> = {}) => ({
  type: "set" as const, instructions: "Pick the class", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "cls",
  evidence: { option_probabilities: evidence }, ...extra,
});
const probs = { A: 0.7, B: 0.2, C: 0.06, D: 0.04 };

beforeAll(async () => {
  server = await startServer();
  client = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("profiles and evaluate", () => {
  it("creates, lists and reads a profile", async () => {
    const created = await client.createProfile({ name: "cls", backend: { ...CLIENT_BACKEND, fingerprint: "sha256:aaaa0000" } as never, method: "LAC", alpha: 0.1, strict_fingerprint: false });
    expect(created).toMatchObject({ name: "cls", version: 0, n: 0, minimum_n: 9, status: "collecting", backend_fingerprint: "sha256:aaaa0000" });
    expect(created.recommended_n).toBeGreaterThan(100);
    const again = await client.createProfile({ name: "cls", backend: { ...CLIENT_BACKEND, fingerprint: "sha256:aaaa0000" } as never, method: "LAC", alpha: 0.1, strict_fingerprint: false });
    expect(again.name).toBe("cls");
    const list = await client.listProfiles();
    expect(list.profiles.map((p) => p.name)).toContain("cls");
    expect((await client.getProfile("cls")).status).toBe("collecting");
  });

  it("answers 424 with heuristic answers while collecting", async () => {
    await client.addExamples("cls", Array.from({ length: 5 }, (_, i) => setExample(rand, i)));
    const err = await client.evaluate({ context: "x", backend: CLIENT_BACKEND, queries: { q1: setQuery(probs) } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCalibrationError);
    const e = err as InsufficientCalibrationError;
    expect(e.status).toBe(424);
    expect(e.answers.q1!.guarantee).toMatchObject({ kind: "heuristic", holds: false, n: 5, profile: "cls" });
    expect((e.body as { error: string }).error).toBe("insufficient_calibration");
  });

  it("serves set answers with a coverage guarantee once n ≥ minimum_n, and version counts batches", async () => {
    const before = await client.getProfile("cls");
    const profile = await client.addExamples("cls", Array.from({ length: 400 }, (_, i) => setExample(rand, 100 + i)));
    expect(profile).toMatchObject({ n: 405, status: "serving", version: before.version + 1 });
    const res = await client.evaluate({
      context: "x", backend: CLIENT_BACKEND,
      queries: { q1: setQuery(probs), q2: setQuery(probs, { alpha: 0.3, method: "APS" }) },
    });
    const a = res.answers.q1!;
    expect(a.type).toBe("set");
    if (a.type !== "set") throw new Error();
    expect(a.set).toContain("A");
    expect(a.guarantee).toMatchObject({ kind: "coverage", holds: true, alpha: 0.1, n: 405, method: "LAC", profile: "cls", profile_version: profile.version, evidence_level: "L1" });
    expect(Object.keys(a.venn_abers)).toEqual(["A", "B", "C", "D"]);
    expect(res.answers.q2!.guarantee).toMatchObject({ alpha: 0.3, method: "APS" });
    expect(res.usage).toEqual({ backend_calls: 0, backend_tokens: 0 });
    expect(res.request_id).toMatch(/./);
    // Reproducible: the same query under the same request id (which seeds its u) gives the same randomized APS answer.
    const sameId = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false, headers: { "x-request-id": res.request_id! } });
    const again = await sameId.evaluate({ context: "x", backend: CLIENT_BACKEND, queries: { q2: setQuery(probs, { alpha: 0.3, method: "APS" }) } });
    expect(again.request_id).toBe(res.request_id);
    expect(again.answers.q2).toEqual(res.answers.q2);
  });

  it("gives randomized answers a client reproduces bit for bit with the documented seeds", async () => {
    await client.createProfile({ name: "repro", backend: CLIENT_BACKEND, alpha: 0.2, method: "APS", strict_fingerprint: false });
    const names = ["A", "B", "C", "D"];
    const cases = Array.from({ length: 12 }, () => {
      const raw = names.map(() => 0.05 + rand());
      const sum = raw.reduce((a, b) => a + b, 0);
      return Object.fromEntries(names.map((n, j) => [n, raw[j]! / sum]));
    });
    const queries = Object.fromEntries(cases.map((p, k) => [`q${k}`, setQuery(p, { calibration_profile: "repro" })]));
    // Three versions, each evaluated: the later ones extend the calibration of the one before.
    for (const size of [200, 150, 1]) {
      const profile = await client.addExamples("repro", Array.from({ length: size }, (_, i) => setExample(rand, i)));
      const res = await client.evaluate({ context: "x", backend: CLIENT_BACKEND, queries });
      const stored = (await (await fetch(`${server.url}/api/v1/calibration-profiles/repro/examples?limit=10000`)).json()) as { examples: { label: string; metadata: { evidence: { option_probabilities: Record<string, number> } } }[] };
      expect(stored.examples).toHaveLength(profile.n);
      let position = 0;
      const cal = calibrateSet(
        { probabilities: stored.examples.map((e) => names.map((n) => e.metadata.evidence.option_probabilities[n]!)), labels: stored.examples.map((e) => names.indexOf(e.label)) },
        { method: "APS", alpha: 0.2, rng: () => rngFromString(`repro#${position++}`)() },
      );
      cases.forEach((p, k) => {
        const mine = predictSet(cal, { probabilities: names.map((n) => p[n]!), options: names }, rngFromString(`repro@${profile.version}/${res.request_id}/q${k}`));
        expect((res.answers[`q${k}`] as { set: string[] }).set).toEqual(mine.set);
      });
    }
  });

  it("serves belief, gate, interval and claim queries from one profile", async () => {
    await client.createProfile({ name: "multi", backend: CLIENT_BACKEND, alpha: 0.2, method: "ordinal-aps", strict_fingerprint: false });
    const levels = ["low", "mid", "high"];
    const examples = [
      ...Array.from({ length: 60 }, (_, i) => binaryExample(rand, i, ["yes", "no"])),
      ...Array.from({ length: 60 }, (_, i) => binaryExample(rand, i, ["pass", "fail"])),
      ...Array.from({ length: 60 }, (_, i) => {
        const y = i % 3;
        const p = levels.map((_, j) => (j === y ? 0.6 : 0.2));
        return { context: `lvl ${i}`, label: levels[y]!, metadata: { evidence: { level_probabilities: Object.fromEntries(levels.map((l, j) => [l, p[j]!])) } } };
      }),
      ...Array.from({ length: 30 }, (_, i) => ({
        context: `claims ${i}`,
        label: { claims: [{ text: "The sky is blue.", correct: true }, { text: `Fact ${i} is false.`, correct: false }] },
        metadata: { evidence: { samples: ["The sky is blue. It rains.", "The sky is blue.", `Fact ${i} is false. The sky is blue.`] } },
      })),
    ];
    const profile = await client.addExamples("multi", examples);
    expect(profile.n).toBe(210);
    const res = await client.evaluate({
      context: "c", backend: CLIENT_BACKEND,
      queries: {
        b: { type: "belief", instructions: "Is it?", calibration_profile: "multi", evidence: { option_probabilities: { yes: 0.9, no: 0.1 } } },
        g: { type: "gate", instructions: "OK?", calibration_profile: "multi", guarantee: "risk", target: 0.2, evidence: { option_probabilities: { pass: 0.95, fail: 0.05 } } },
        i: { type: "interval", instructions: "How much?", levels, calibration_profile: "multi", evidence: { level_probabilities: { low: 0.1, mid: 0.8, high: 0.1 } } },
        c: { type: "claim", instructions: "Facts", calibration_profile: "multi", evidence: { samples: ["The sky is blue. Cats bark.", "The sky is blue.", "The sky is blue. Dogs bark."] } },
      },
    });
    const { b, g, i, c } = res.answers;
    expect(b).toMatchObject({ type: "belief", guarantee: { kind: "calibration", holds: true } });
    if (b?.type === "belief") expect(b.venn_abers[0]).toBeLessThanOrEqual(b.venn_abers[1]);
    expect(g).toMatchObject({ type: "gate", guarantee: { kind: "risk", target: 0.2 } });
    expect(["auto_approve", "escalate", "abstain"]).toContain((g as { decision: string }).decision);
    expect(i).toMatchObject({ type: "interval", point_estimate: "mid", guarantee: { kind: "coverage", method: "ordinal-aps" } });
    expect(c).toMatchObject({ type: "claim", guarantee: { kind: "factuality" } });
    if (c?.type === "claim") {
      expect(c.retained_claims.map((x) => x.text)).toContain("The sky is blue.");
      expect(c.dropped_claims.map((x) => x.text)).toContain("Cats bark.");
    }
  });

  it("calibrates each Mondrian group on its own and gives each group its own status", async () => {
    await client.createProfile({ name: "grp", backend: CLIENT_BACKEND, alpha: 0.1, group_by: "region", strict_fingerprint: false });
    const missing = await client.addExamples("grp", [setExample(rand, 0)]).catch((x: unknown) => x);
    expect((missing as UnprocessableError).field).toBe("examples.0.group");
    const profile = await client.addExamples("grp", [
      ...Array.from({ length: 30 }, (_, i) => ({ ...setExample(rand, i), group: "eu" })),
      ...Array.from({ length: 5 }, (_, i) => {
        const e = setExample(rand, i);
        return { ...e, metadata: { ...e.metadata, region: "us" } };
      }),
    ]);
    expect(profile).toMatchObject({ n: 35, status: "collecting", group_by: "region", groups: { eu: { n: 30, status: "serving" }, us: { n: 5, status: "collecting" } } });
    const eu = await client.evaluate({ context: "x", backend: CLIENT_BACKEND, queries: { q: setQuery(probs, { calibration_profile: "grp", group_by: "eu" }) } });
    expect(eu.answers.q!.guarantee).toMatchObject({ kind: "group_coverage", group: "eu", n: 30 });
    const us = await client.evaluate({ context: "x", backend: CLIENT_BACKEND, queries: { q: setQuery(probs, { calibration_profile: "grp", group_by: "us" }) } }).catch((x: unknown) => x);
    expect((us as InsufficientCalibrationError).answers.q!.guarantee).toMatchObject({ kind: "heuristic", group: "us", n: 5 });
  });

  it("rejects unknown profiles (404 with field) and invalid requests (422 naming the field)", async () => {
    const e404 = await client.evaluate({ context: "x", backend: CLIENT_BACKEND, queries: { q1: { ...setQuery(probs), calibration_profile: "nope" } } }).catch((e: HttpError) => e);
    expect(e404.status).toBe(404);
    expect((e404.body as { field: string }).field).toBe("queries.q1.calibration_profile");
    const raw = await fetch(`${server.url}/api/v1/evaluate`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ context: "x", backend: CLIENT_BACKEND, queries: { q1: { ...setQuery(probs), options: { A: "a" } } } }),
    });
    expect(raw.status).toBe(422);
    const body = (await raw.json()) as { error: string; field: string; issues: unknown[]; message: string };
    expect(body.error).toBe("validation_failed");
    expect(body.field).toBe("queries.q1.options");
    expect(body.issues.length).toBeGreaterThan(0);
    expect(raw.headers.get("x-request-id")).toBeTruthy();
  });

  it("strict fingerprints refuse a mismatch with 422; non-strict ones warn and go stale", async () => {
    await client.createProfile({ name: "strict", backend: { ...CLIENT_BACKEND, fingerprint: "sha256:11110000" } as never, alpha: 0.1, strict_fingerprint: true });
    await client.addExamples("strict", Array.from({ length: 20 }, (_, i) => setExample(rand, i)));
    const mismatch = { ...CLIENT_BACKEND, fingerprint: "sha256:22220000" };
    const e = await client.evaluate({ context: "x", backend: mismatch as never, queries: { q: { ...setQuery(probs), calibration_profile: "strict" } } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnprocessableError);
    expect((e as UnprocessableError).field).toBe("backend.fingerprint");
    const e2 = await client.addExamples("strict", [setExample(rand, 1, { backend_fingerprint: "sha256:22220000" })]).catch((x: unknown) => x);
    expect((e2 as UnprocessableError).field).toBe("examples.0.metadata.backend_fingerprint");

    const ok = await client.evaluate({ context: "x", backend: mismatch as never, queries: { q: setQuery(probs) } });
    expect(ok.warnings.join(" ")).toMatch(/fingerprint/);
    const changed = await client.addExamples("cls", [setExample(rand, 1, { backend_fingerprint: "sha256:22220000" })]);
    expect(changed).toMatchObject({ status: "stale", backend_fingerprint: "sha256:22220000" });
    const back = await client.addExamples("cls", [setExample(rand, 2, { backend_fingerprint: "sha256:22220000" })]);
    expect(back.status).toBe("serving");
  });

  it("audits append to the history; a failed audit makes the profile stale until examples arrive", async () => {
    const pass = await client.audit("cls", Array.from({ length: 50 }, (_, i) => setExample(rand, 1000 + i)));
    expect(pass).toMatchObject({ result: "pass", sample: 50, target: 0.9 });
    // Labels the calibrated sets never contain: coverage collapses.
    const bad = Array.from({ length: 60 }, (_, i) => ({ context: `bad ${i}`, label: "D", metadata: { evidence: { option_probabilities: { A: 0.97, B: 0.01, C: 0.01, D: 0.01 } } } }));
    const fail = await client.audit("cls", bad);
    expect(fail.result).toBe("fail");
    const stale = await client.getProfile("cls");
    expect(stale).toMatchObject({ status: "stale", last_audit: { result: "fail" } });
    expect(stale.realized_coverage_ci).toEqual(fail.ci);
    const history = (await (await fetch(`${server.url}/api/v1/calibration-profiles/cls/audits`)).json()) as { audits: unknown[] };
    expect(history.audits).toHaveLength(2);
    const served = await client.evaluate({ context: "x", backend: CLIENT_BACKEND, queries: { q1: setQuery(probs) } });
    expect(served.warnings.join(" ")).toMatch(/stale/);
    expect((await client.addExamples("cls", [setExample(rand, 7)])).status).toBe("serving");
  });

  it("monitors consume later examples, raise alerts and make the profile stale", async () => {
    const monitor = await client.createMonitor("cls", { type: "coverage", false_alarm_rate: 0.05 });
    expect(monitor).toMatchObject({ profile: "cls", type: "coverage", target: 0.1, status: "active" });
    expect((await client.listMonitors("cls")).monitors.map((m) => m.id)).toContain(monitor.id);
    expect((await client.listAlerts("cls", monitor.id)).alerts).toEqual([]);
    const drifted = Array.from({ length: 80 }, (_, i) => ({ context: `drift ${i}`, label: "D", metadata: { evidence: { option_probabilities: { A: 0.97, B: 0.01, C: 0.01, D: 0.01 } } } }));
    const after = await client.addExamples("cls", drifted);
    expect(after.status).toBe("stale");
    const alerts = (await client.listAlerts("cls", monitor.id)).alerts;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: "coverage_drift", target: 0.1, false_alarm_rate: 0.05 });
    expect(alerts[0]!.e_value).toBeGreaterThanOrEqual(20);
    expect((await client.listMonitors("cls")).monitors.find((m) => m.id === monitor.id)!.status).toBe("alarmed");
  });

  it("replays an example batch sent again with the same Idempotency-Key", async () => {
    const before = await client.getProfile("multi");
    const batch = [binaryExample(rand, 1, ["yes", "no"])];
    const first = await client.addExamples("multi", batch, { idempotencyKey: "batch-123" });
    const second = await client.addExamples("multi", batch, { idempotencyKey: "batch-123" });
    expect(first.n).toBe(before.n + 1);
    expect(second.n).toBe(first.n);
    expect(second.version).toBe(first.version);
    expect((await client.getProfile("multi")).n).toBe(before.n + 1);
  });

  it("escalates a judge cascade to the human queue, which lists the item", async () => {
    await client.createProfile({ name: "judge", backend: CLIENT_BACKEND, alpha: 0.1, strict_fingerprint: false });
    const judged = Array.from({ length: 100 }, (_, i) => {
      const win = i % 2 ? "left" : "right";
      const p = 0.55 + 0.4 * rand();
      return { context: { candidates: { left: "l", right: "r" } }, label: win, metadata: { evidence: { option_probabilities: { [win]: p, [win === "left" ? "right" : "left"]: 1 - p } } } };
    });
    await client.addExamples("judge", judged);
    const res = await client.evaluate({
      context: { candidates: { left: "one answer", right: "another" } }, backend: CLIENT_BACKEND,
      queries: { j: { type: "judge", instructions: "Which is better?", calibration_profile: "judge", cascade: [{ backend: "human_queue" }], evidence: { option_probabilities: { left: 0.5, right: 0.5 } } } },
    });
    expect(res.answers.j).toMatchObject({ type: "judge", winner: null, escalated_to: "human_queue" });
    const clear = await client.evaluate({
      context: { candidates: { left: "one answer", right: "another" } }, backend: CLIENT_BACKEND,
      queries: { j: { type: "judge", instructions: "Which is better?", calibration_profile: "judge", cascade: [{ backend: "human_queue" }], evidence: { option_probabilities: { left: 0.99, right: 0.01 } } } },
    });
    expect(clear.answers.j).toMatchObject({ winner: "left", escalated_to: null });
    const queue = await client.listHumanQueue();
    expect(queue.items).toHaveLength(1);
    expect(queue.items[0]).toMatchObject({ kind: "escalation", profile: "judge", query: "j" });
  });

  it("names unconfigured backends with 422 and lists configured ones", async () => {
    expect((await client.listBackends()).backends).toEqual([]);
    const e = await client.evaluate({
      context: "x",
      queries: { r: { type: "route", calibration_profile: "cls", guarantee: "accuracy", cascade: [{ backend: { provider: "vllm", name: "small" } }, { backend: "human_queue" }] } },
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnprocessableError);
    expect((e as UnprocessableError).field).toBe("queries.r.cascade.0.backend");
    const j = await client.labelWithJudge("cls", { judge: "nobody", unlabelled_examples: [{ context: "x" }], human_labelled_sample_size: 0 }).catch((x: unknown) => x);
    expect((j as UnprocessableError).field).toBe("judge");
  });

  it("keeps everything across a restart", async () => {
    const before = await client.listProfiles();
    expect(await server.stop()).toBe(0);
    server = { ...(await startServer({ data: server.data })) };
    client = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false });
    const after = await client.listProfiles();
    expect(after.profiles.map(({ realized_coverage_ci, ...p }) => p)).toEqual(before.profiles.map(({ realized_coverage_ci, ...p }) => p));
    expect((await client.listHumanQueue()).items).toHaveLength(1);
    const monitors = await client.listMonitors("cls");
    expect((await client.listAlerts("cls", monitors.monitors[0]!.id)).alerts).toHaveLength(1);
  });
});
