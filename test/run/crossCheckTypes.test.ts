// The cross-check of every query type against the real embedded service, with `calibkit serve-model` serving
// stories260K as the judge and route stages: each answer agrees field by field with the local engine and none
// is left unchecked; then a loopback proxy between the client and the service changes one field of each answer
// type on its way, and the cross-check names that query and that field.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluateRequest, ExampleRecord } from "../../src/api/index.js";
import { CrossChecker, EvaluationClient } from "../../src/client/index.js";
import { mulberry32 } from "../../src/conformal/index.js";
import { startService, type RunningService } from "../../src/service/index.js";
import { REPO, spawnCalibkit, type Spawned } from "../service/helpers.js";

const MODEL = join(process.env.CALIBKIT_MODELS_DIR ?? join(REPO, "../shared/models"), "stories260K.gguf");
const BACKEND = { provider: "client_evidence", name: "local", access_level: "L2" } as const;
const rng = mulberry32(15);
const STAGE_COSTS = { small: 0.1, large: 2 };

/** A probability that follows the binary label `positive` 85% of the time. */
const noisyP = (positive: boolean) => {
  const p = 0.5 + 0.5 * rng();
  return rng() < 0.85 === positive ? p : 1 - p;
};
const pair = (a: string, b: string, pa: number) => ({ [a]: pa, [b]: 1 - pa });

function beliefExample(): ExampleRecord {
  const yes = rng() < 0.5;
  return { context: "b", label: yes ? "yes" : "no", metadata: { evidence: { option_probabilities: pair("yes", "no", noisyP(yes)) } } };
}
function gateExample(): ExampleRecord {
  const pass = rng() < 0.7;
  return { context: "g", label: pass, metadata: { evidence: { option_probabilities: pair("pass", "fail", noisyP(pass)) } } };
}
function claimSample(truths: boolean[]): { text: string; claims: { text: string; score: number }[] } {
  const claims = truths.map((t, k) => ({ text: `Fact ${k} ${Math.floor(rng() * 1e6)}.`, score: Math.min(1, Math.max(0, (t ? 0.7 : 0.35) + (rng() - 0.5) * 0.5)) }));
  return { text: claims.map((c) => c.text).join(" "), claims };
}
function claimExample(): ExampleRecord {
  const truths = Array.from({ length: 4 }, () => rng() < 0.75);
  const sample = claimSample(truths);
  return { context: "c", label: { claims: sample.claims.map((c, k) => ({ text: c.text, correct: truths[k]! })) }, metadata: { evidence: { samples: [sample], claim_scoring: "client" } } };
}
const CANDIDATES = { first: "The cat sat on the mat.", second: "The dog ran in the park." };
function judgeExample(): ExampleRecord {
  const first = rng() < 0.5;
  const stage = (sharp: number) => pair("first", "second", 0.5 + (noisyP(first) - 0.5) * sharp);
  return {
    context: { candidates: CANDIDATES }, label: first ? "first" : "second",
    metadata: { evidence: { option_probabilities: stage(0.4), stage_probabilities: { small: stage(1), large: stage(1.2) } } },
  };
}
function routeExample(i: number): ExampleRecord {
  const c = rng();
  return {
    context: `Once upon a time ${i}`, label: { stages: { small: rng() < c ? "correct" : "incorrect", large: "correct" } },
    metadata: { evidence: { stage_confidence: { small: c, large: 0.9 } } },
  };
}

const query = {
  belief: () => ({ type: "belief", instructions: "Is it yes?", calibration_profile: "xb", evidence: { option_probabilities: pair("yes", "no", rng()) } }),
  gate: () => ({ type: "gate", instructions: "Approve?", calibration_profile: "xg", guarantee: "risk", target: 0.2, evidence: { option_probabilities: pair("pass", "fail", rng()) } }),
  claim: () => ({ type: "claim", instructions: "Check", calibration_profile: "xc", evidence: { samples: [claimSample([true, true, false, true])], claim_scoring: "client" } }),
  judge: () => ({ type: "judge", instructions: "Which is nicer?", calibration_profile: "xj", evidence: { option_probabilities: pair("first", "second", 0.5) },
    cascade: [{ backend: { provider: "vllm", name: "small" } }, { backend: { provider: "vllm", name: "large" } }, { backend: "human_queue" }] }),
  route: () => ({ type: "route", instructions: "Continue the story.", calibration_profile: "xr", guarantee: "cost_budget", target_cents: 1.5,
    cascade: [{ backend: { provider: "vllm", name: "small" } }, { backend: { provider: "vllm", name: "large" } }] }),
};
type Kind = keyof typeof query;
const KINDS = Object.keys(query) as Kind[];
const requestFor = (kind: Kind): EvaluateRequest => ({
  context: kind === "judge" ? { candidates: CANDIDATES } : "Once upon a time, there was a little girl",
  ...(kind === "route" ? {} : { backend: BACKEND }),
  queries: { [kind]: query[kind]() },
}) as EvaluateRequest;

/** One field of each answer type, changed on the way from the service. */
const PERTURB: Record<Kind, [string, (a: Record<string, unknown>) => void]> = {
  belief: ["probability", (a) => { a.probability = (a.probability as number) + 1e-6; }],
  gate: ["decision", (a) => { a.decision = a.decision === "auto_approve" ? "escalate" : "auto_approve"; }],
  claim: ["retained_claims", (a) => { a.retained_claims = [...(a.retained_claims as unknown[]), ...(a.dropped_claims as unknown[])]; }],
  judge: ["escalated_to", (a) => { a.escalated_to = a.escalated_to === "large" ? "small" : "large"; }],
  route: ["served_by", (a) => { a.served_by = a.served_by === "small" ? "large" : "small"; }],
};

let model: Spawned;
let service: RunningService;
let proxy: Server;
let dataDir: string;
let direct: EvaluationClient;
let tampered: EvaluationClient;
const examples: Record<Kind, ExampleRecord[]> = { belief: [], gate: [], claim: [], judge: [], route: [] };

/** Forwards to the service; an /evaluate answer has the PERTURB field of its one query changed. */
function startProxy(target: string): Promise<Server> {
  const server = createServer((req, res) => {
    const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on("data", (c: Buffer) => chunks.push(c));
      up.on("end", () => {
        let body = Buffer.concat(chunks).toString("utf8");
        if (req.url?.endsWith("/evaluate") && up.statusCode === 200) {
          const json = JSON.parse(body) as { answers: Record<string, Record<string, unknown>> };
          for (const [name, answer] of Object.entries(json.answers)) PERTURB[name as Kind][1](answer);
          body = JSON.stringify(json);
        }
        const headers = { ...up.headers, "content-length": String(Buffer.byteLength(body)) };
        res.writeHead(up.statusCode ?? 502, headers);
        res.end(body);
      });
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  model = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1"], 60_000);
  dataDir = await mkdtemp(join(tmpdir(), "calibkit-xtypes-"));
  service = await startService({
    dataDir, log: () => undefined,
    config: { backends: [
      { name: "small", provider: "vllm", base_url: model.url, cost_cents_per_call: STAGE_COSTS.small, cost_cents_per_1k_tokens: 0.01, max_tokens: 4 },
      { name: "large", provider: "vllm", base_url: model.url, cost_cents_per_call: STAGE_COSTS.large, cost_cents_per_1k_tokens: 0.5, max_tokens: 8 },
    ] },
  });
  proxy = await startProxy(service.url);
  direct = new EvaluationClient({ baseUrl: service.baseUrl, retry: false });
  tampered = new EvaluationClient({ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1`, retry: false });
  const make: Record<Kind, (i: number) => ExampleRecord> = { belief: beliefExample, gate: gateExample, claim: claimExample, judge: judgeExample, route: routeExample };
  for (const kind of KINDS) {
    examples[kind] = Array.from({ length: 200 }, (_, i) => make[kind](i));
    await direct.createProfile({ name: `x${kind[0]}`, backend: BACKEND, alpha: 0.2 });
    await direct.addExamples(`x${kind[0]}`, examples[kind]);
  }
}, 120_000);
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await service?.close();
  await model?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function checkerFor(kind: Kind): Promise<CrossChecker> {
  return new CrossChecker(await direct.getProfile(`x${kind[0]}`), examples[kind], { stageCosts: STAGE_COSTS });
}

describe("the cross-check recomputes every query type", () => {
  it.each(KINDS)("%s: every answer agrees, none is unchecked", async (kind) => {
    const checker = await checkerFor(kind);
    const rounds = kind === "route" || kind === "judge" ? 4 : 20;
    for (let i = 0; i < rounds; i++) {
      const req = requestFor(kind);
      checker.check(req, await direct.evaluate(req), `item${i}`);
    }
    expect(checker.report.uncheckedReasons).toEqual([]);
    expect(checker.report.unchecked).toEqual({});
    expect(checker.report.disagreements).toEqual([]);
    expect(checker.report.answers).toBe(rounds);
  }, 60_000);

  it("the judge reached its model stages and the route its thresholds (what the checks above covered)", async () => {
    const res = await direct.evaluate(requestFor("judge"));
    const judge = res.answers.judge as { stages?: { stage: string }[]; escalated_to: string | null };
    expect(judge.stages?.map((s) => s.stage).slice(0, 2)).toEqual(["request", "small"]);
    const route = (await direct.evaluate(requestFor("route"))).answers.route as { thresholds?: number[] | null };
    expect(route.thresholds).toHaveLength(1);
  }, 60_000);

  it.each(KINDS)("%s: a field changed on its way from the service is named by query and field", async (kind) => {
    const checker = await checkerFor(kind);
    const req = requestFor(kind);
    const found = checker.check(req, await tampered.evaluate(req), "item9");
    const [field] = PERTURB[kind];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.query === `item9/${kind}`)).toBe(true);
    expect(found.map((d) => d.field.replace(/\[\d+\].*$/, ""))).toContain(field);
    expect(checker.report.disagreements).toEqual(found);
  }, 60_000);
});
