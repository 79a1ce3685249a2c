// The answers of a parsed evaluate request: resolves every query's profile (404 naming the field), checks
// backend fingerprints (strict: 422 at backend.fingerprint; otherwise a warning), obtains evidence from a
// model backend when the caller did not send it, and runs each query's engine. Any heuristic answer makes the
// whole response a 424 that still carries every answer.
import { evaluateResponseJson, type AccessLevel, type Evidence, type EvaluateRequest, type GateQuery, type Query, type SetQuery } from "../../api/index.js";
import type { BackendRegistry } from "../backends/backendRegistry.js";
import { createStageCaller } from "../backends/stageCaller.js";
import { invalidField } from "../errors.js";
import type { HumanQueue } from "../humanQueue.js";
import type { ServiceResponse } from "../http/router.js";
import type { ProfileState } from "../profiles/profileState.js";
import type { ProfileStore } from "../profiles/profileStore.js";
import { answerBelief } from "./beliefQuery.js";
import { answerClaim } from "./claimQuery.js";
import { HUMAN_QUEUE } from "./conformal.js";
import { answerGate, decideGatesTogether } from "./gateQuery.js";
import { answerInterval } from "./intervalQuery.js";
import { answerJudge } from "./judgeQuery.js";
import { CalibrationPending, whenBuilt } from "./rebuilds.js";
import { answerRoute, stagePrompt } from "./routeQuery.js";
import { answerSet } from "./setQuery.js";
import { predictSetsTogether } from "./setTogether.js";
import type { QueryInput, QueryOutcome, StageCaller, Usage } from "./types.js";

export interface EvaluateDeps {
  profiles: ProfileStore;
  backends: BackendRegistry;
  humanQueue: HumanQueue;
}

const CLAIM_SAMPLES = 5;

function runQuery(input: QueryInput): QueryOutcome | Promise<QueryOutcome> {
  const q = input.query;
  switch (q.type) {
    case "set": return answerSet(input as QueryInput<typeof q>);
    case "belief": return answerBelief(input as QueryInput<typeof q>);
    case "interval": return answerInterval(input as QueryInput<typeof q>);
    case "gate": return answerGate(input as QueryInput<typeof q>);
    case "claim": return answerClaim(input as QueryInput<typeof q>);
    case "judge": return answerJudge(input as QueryInput<typeof q>);
    case "route": return answerRoute(input as QueryInput<typeof q>);
  }
}

/** Names the query's probabilities are over, for asking a model backend. */
function namesOf(query: Query, context: unknown): { names: string[]; levels: boolean } | undefined {
  switch (query.type) {
    case "set": return { names: Object.keys(query.options).sort(), levels: false };
    case "belief": return { names: ["no", "yes"], levels: false };
    case "gate": return { names: ["fail", "pass"], levels: false };
    case "interval": return { names: query.levels.map(String), levels: true };
    case "judge": {
      const c = (context as { candidates?: Record<string, unknown> } | null)?.candidates;
      return c && typeof c === "object" ? { names: Object.keys(c).sort(), levels: false } : undefined;
    }
    default: return undefined;
  }
}

/** Evidence from the request's model backend, for a query the caller sent no evidence for. */
async function backendEvidence(request: EvaluateRequest, query: Query, stages: StageCaller): Promise<Evidence | undefined> {
  if (query.type === "route" || query.evidence) return query.evidence;
  const backend = request.backend!;
  const instructions = (query as { instructions?: unknown }).instructions;
  if (query.type === "claim") return { samples: await stages.samples(backend, "backend", stagePrompt(instructions, request.context), CLAIM_SAMPLES) };
  const spec = namesOf(query, request.context);
  if (!spec) return undefined;
  const optionText = query.type === "set" ? `\nOptions: ${spec.names.join(", ")}` : query.type === "interval" ? `\nLevels: ${spec.names.join(", ")}` : "";
  const p = await stages.judge(backend, "backend", `${stagePrompt(instructions, request.context)}${optionText}`, spec.names);
  const map = Object.fromEntries(spec.names.map((n, j) => [n, p[j]!]));
  return spec.levels ? { level_probabilities: map } : { option_probabilities: map };
}

/** What the queries of one (part of a) request came to, before it is written as a response. */
export interface Answered {
  names: string[];
  outcomes: QueryOutcome[];
  backend: EvaluateRequest["backend"];
  usage: Usage;
  warnings: string[];
}

/** Answers every query of a parsed request: at once when evidence is in hand, a promise when a backend is called. */
export function answerRequest(request: EvaluateRequest, deps: EvaluateDeps, requestId: string): Answered | Promise<Answered> {
  const usage: Usage = { backend_calls: 0, backend_tokens: 0 };
  const warnings: string[] = [];
  const stages = createStageCaller(deps.backends, deps.humanQueue, usage);
  const backend = request.backend;
  const clientEvidence = backend?.provider === "client_evidence";
  const requestFingerprint = (backend as { fingerprint?: unknown } | undefined)?.fingerprint;

  // Resolve everything a request names before any backend is called: a typo never costs a model call.
  if (backend && !clientEvidence) deps.backends.resolve(backend, "backend");
  // Loops over the names rather than Object.entries, a Map and closures: this runs for every evaluate.
  const names = Object.keys(request.queries);
  const queries: Query[] = [];
  const states: ProfileState[] = [];
  let inHand = clientEvidence || !backend;
  for (const name of names) {
    const q = request.queries[name]!;
    queries.push(q);
    states.push(deps.profiles.get(q.calibration_profile, `queries.${name}.calibration_profile`));
    if (q.type === "judge" || q.type === "route") inHand = false;
  }
  for (let i = 0; i < names.length; i++) {
    const q = queries[i]!;
    if (q.type !== "route" && q.type !== "judge") continue;
    const name = names[i]!;
    (q.cascade ?? []).forEach((stage, s) => {
      // A route stage may be the caller's own model: its output comes in the query's evidence (routeQuery.ts).
      if (stage.backend !== HUMAN_QUEUE && stage.backend.provider === "client_evidence") {
        if (q.type === "route") return;
        throw invalidField(`queries.${name}.cascade.${s}.backend`, `\`queries.${name}.cascade.${s}.backend\` cannot be client_evidence in a judge cascade: the service calls judge stages itself (a route cascade may start with the caller's own model)`);
      }
      if (stage.backend !== HUMAN_QUEUE) deps.backends.resolve(stage.backend, `queries.${name}.cascade.${s}.backend`);
    });
  }
  for (let i = 0; i < states.length; i++) {
    const profile = states[i]!;
    if (states.indexOf(profile) < i) continue; // one warning per profile (states are one per profile name)
    if (typeof requestFingerprint === "string" && profile.fingerprint !== undefined && requestFingerprint !== profile.fingerprint) {
      const message = `backend fingerprint ${requestFingerprint} differs from ${profile.fingerprint}, the one profile "${profile.name}" was calibrated on`;
      if (profile.meta.strict_fingerprint) throw invalidField("backend.fingerprint", `\`backend.fingerprint\`: ${message}, and the profile is strict`);
      warnings.push(`${message}; answers assume the calibration still applies (the profile is not strict)`);
    }
    if (profile.status === "stale") warnings.push(`profile "${profile.name}" is stale (${profile.staleReason}); add examples to recalibrate`);
  }

  if (inHand) {
    // Evidence in hand and engines that call no backend: every query is answered in this turn of the event loop,
    // in order, as the general path below would; the first failure is the answer either way.
    const level = clientEvidence ? (backend as { access_level: AccessLevel }).access_level : undefined;
    const inputs: QueryInput[] = [];
    for (let i = 0; i < names.length; i++) {
      const query = queries[i]!;
      inputs.push({ name: names[i]!, requestId, query, profile: states[i]!, evidence: query.evidence, level, context: request.context, stages, warnings });
    }
    try {
      const prepared = inputs.length > 1 ? predictSetsTogether(inputs) : undefined;
      const gates = decideGatesTogether(inputs);
      const outcomes: QueryOutcome[] = [];
      for (let i = 0; i < inputs.length; i++) {
        const input = inputs[i]!;
        const set = prepared?.[i];
        const gate = gates?.[i];
        outcomes.push(set ? answerSet(input as QueryInput<SetQuery>, set) : gate ? answerGate(input as QueryInput<GateQuery>, gate) : runQuery(input) as QueryOutcome);
      }
      return { names, outcomes, backend, usage, warnings };
    } catch (err) {
      // A long calibration's first build (rebuilds.ts): this request waits for it, others go on meanwhile.
      if (err instanceof CalibrationPending) return err.ready.then(() => answerRequest(request, deps, requestId));
      throw err;
    }
  }
  return Promise.all(names.map(async (name, i): Promise<QueryInput> => {
    const query = queries[i]!;
    const evidence = clientEvidence || !backend ? query.evidence : await backendEvidence(request, query, stages);
    // A model backend's level is known once it has been probed, which the evidence call above ensures.
    const level: AccessLevel | undefined = query.type === "route" || !backend ? undefined
      : clientEvidence ? (backend as { access_level: AccessLevel }).access_level : stages.level(backend, "backend");
    return { name, requestId, query, profile: states[i]!, evidence, level, context: request.context, stages, warnings };
  })).then(async (inputs) => {
    // The fdr gates of one profile and target are one batch, decided once every query's evidence is in.
    const gates = await whenBuilt(() => decideGatesTogether(inputs));
    return Promise.all(inputs.map((input, i) => {
      const gate = gates?.[i];
      return whenBuilt(() => (gate ? answerGate(input as QueryInput<GateQuery>, gate) : runQuery(input)));
    }));
  }).then((outcomes) => ({ names, outcomes, backend, usage, warnings }));
}

/** The response: every answer, and a 424 naming the heuristic ones when there are any. */
export function respond({ names, outcomes, backend, usage, warnings }: Answered): ServiceResponse {
  const written: string[] = [];
  for (const o of outcomes) {
    if (o.json === undefined) break;
    written.push(o.json);
  }
  // Every answer written as JSON (and none heuristic: those are objects): so is the response.
  if (written.length === outcomes.length) return new WrittenResponse(evaluateResponseJson(names, written, backend, usage, warnings));
  const answers = Object.fromEntries(names.map((name, i) => [name, outcomes[i]!.answer]));
  const short = names.filter((_, i) => outcomes[i]!.insufficient);
  const response: Record<string, unknown> = backend ? { answers, backend, usage, warnings } : { answers, usage, warnings };
  if (short.length === 0) return { status: 200, body: response };
  return {
    status: 424,
    body: {
      ...response,
      error: "insufficient_calibration",
      message: insufficientMessage(short),
    },
  };
}

/** The message of a 424: which queries' answers are heuristic. */
export const insufficientMessage = (short: readonly string[]): string =>
  `Too few calibration examples for the requested guarantee of ${short.map((n) => `queries.${n}`).join(", ")}; those answers are heuristic (guarantee.kind "heuristic", holds false)`;

/** A 200 written as JSON by the engine: its body object is read back from the text only when asked for. */
class WrittenResponse implements ServiceResponse {
  readonly status = 200;
  constructor(readonly json: string) {}
  get body(): unknown {
    return JSON.parse(this.json);
  }

  /** As a plain response would serialise: status and body. */
  toJSON(): { status: number; body: unknown } {
    return { status: this.status, body: this.body };
  }
}
