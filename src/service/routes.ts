// Every endpoint of spec section 4 (plus the documented extensions) as a handler over the service's parts.
// Handlers validate with src/api's schemas and leave statuses to the typed errors.
import { createHash, randomUUID } from "node:crypto";
import {
  auditRequestSchema, createMonitorRequestSchema, evaluationServiceOpenApi, labelWithJudgeRequestSchema, parseCreateProfileRequest, parseExamplesRequest,
  parseOrThrow, type AuditResult, type Monitor,
} from "../api/index.js";
import { IdempotencyKeyTaken, type Store } from "../store/index.js";
import type { BackendRegistry } from "./backends/backendRegistry.js";
import { auditCoverage, createMonitor } from "./engine/conformal.js";
import { coveredBy } from "./engine/coverage.js";
import { evaluate } from "./engine/evaluate.js";
import { invalidField, notFound } from "./errors.js";
import type { HumanQueue } from "./humanQueue.js";
import { resolveHumanQueueItem } from "./humanQueueResolve.js";
import { Router, type ServiceRequest, type ServiceResponse } from "./http/router.js";
import type { LabellingJobs } from "./labellingJobs.js";
import { prepareExamples } from "./profiles/ingest.js";
import type { ProfileState } from "./profiles/profileState.js";
import type { ProfileStore } from "./profiles/profileStore.js";
import type { MonitorDefinition, MonitorState } from "./profiles/records.js";

export interface ServiceParts {
  store: Store;
  profiles: ProfileStore;
  backends: BackendRegistry;
  humanQueue: HumanQueue;
  jobs: LabellingJobs;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

function monitorView(profile: string, definition: MonitorDefinition, state: MonitorState): Monitor {
  const e = state.eprocess;
  return {
    id: definition.id, profile, type: definition.type, target: definition.target, false_alarm_rate: definition.false_alarm_rate,
    labelled_sample_rate: definition.labelled_sample_rate, status: state.status,
    // Extensions: the e-process so far.
    use_judge_pseudo_labels: definition.use_judge_pseudo_labels, n: e.t, e_value: Math.min(Math.exp(e.logE), Number.MAX_VALUE), created_at: definition.created_at,
  };
}

function monitorOf(state: ProfileState, id: string) {
  const monitor = state.monitors.get(id);
  if (!monitor) throw notFound(`No monitor ${id} on profile "${state.name}"`);
  return monitor;
}

export function buildRouter(parts: ServiceParts): Router {
  const { store, profiles, backends, humanQueue, jobs } = parts;
  const router = new Router();

  // Calibrations the queries built are worth a checkpoint (a start then need not build them again).
  const noteQueried = (body: unknown) => {
    const queries = (body as { queries: Record<string, { calibration_profile: string }> }).queries;
    let last: ProfileState | undefined;
    for (const name in queries) {
      const state = profiles.find(queries[name]!.calibration_profile);
      if (state && state !== last) profiles.queried((last = state));
    }
  };
  router.add("POST", "/evaluate", (req) => {
    const response = evaluate(req.body, parts, req.id, req.rawBody?.length);
    if (response instanceof Promise) return response.then((r) => (noteQueried(req.body), r));
    noteQueried(req.body);
    return response;
  });

  router.add("POST", "/calibration-profiles", async (req) => {
    const { state, created } = await profiles.create(parseCreateProfileRequest(req.body));
    return { status: created ? 201 : 200, body: state.view() };
  });
  router.add("GET", "/calibration-profiles", async () => {
    await profiles.ready();
    return { status: 200, body: { profiles: profiles.list().map((p) => p.view()) } };
  });
  router.add("GET", "/calibration-profiles/:name", async (req) => ({ status: 200, body: (await profiles.fetch(req.params.name!)).view() }));

  router.add("POST", "/calibration-profiles/:name/examples", async (req: ServiceRequest) => {
    const name = req.params.name!;
    await profiles.fetch(name);
    const { examples } = parseExamplesRequest(req.body);
    const rawKey = req.headers["idempotency-key"];
    const key = typeof rawKey === "string" ? rawKey : undefined;
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) throw invalidField("headers.idempotency-key", "The Idempotency-Key header must be 1 to 200 visible ASCII characters");
    const sha256 = createHash("sha256").update(req.rawBody ?? Buffer.alloc(0)).digest("hex");
    return profiles.change<ServiceResponse>(name, async (state) => {
      const seen = key !== undefined ? state.idempotency.get(key) : undefined;
      if (seen) {
        // A replay (a retry after a lost answer): the first answer, nothing applied twice.
        if (seen.sha256 !== sha256) throw invalidField("headers.idempotency-key", "This Idempotency-Key was already used with a different body");
        return { result: () => ({ status: 200, body: { ...seen.response, idempotent_replay: true } }) };
      }
      const { record, warnings } = prepareExamples(state, examples, key !== undefined ? { key, sha256 } : undefined);
      return { record, result: (s) => ({ status: 200, body: { ...s.view(), ...(warnings.length ? { warnings } : {}) } }) };
    }).catch(async (err: unknown) => {
      if (!(err instanceof IdempotencyKeyTaken)) throw err;
      // A key older than the answers kept in memory: its batch is stored; nothing is applied twice.
      const stored = await store.profiles.idempotencyKey(name, err.key);
      if (stored && stored.sha256 !== sha256) throw invalidField("headers.idempotency-key", "This Idempotency-Key was already used with a different body");
      return { status: 200, body: { ...profiles.get(name).view(), idempotent_replay: true } };
    });
  });

  router.add("POST", "/calibration-profiles/:name/label-with-judge", async (req) => {
    const profile = await profiles.examplesOf(await profiles.fetch(req.params.name!));
    const request = parseOrThrow(labelWithJudgeRequestSchema, req.body, "label-with-judge request");
    return { status: 202, body: await jobs.submit(profile, request) };
  });
  router.add("GET", "/calibration-profiles/:name/label-with-judge/:id", async (req) => {
    await profiles.fetch(req.params.name!);
    return { status: 200, body: await jobs.get(req.params.name!, req.params.id!) };
  });

  router.add("POST", "/calibration-profiles/:name/audit", async (req) => {
    const name = req.params.name!;
    await profiles.fetch(name);
    const { examples } = parseOrThrow(auditRequestSchema, req.body, "audit request");
    return profiles.change(name, async (state) => {
      const covered: boolean[] = [];
      examples.forEach((example, i) => {
        const c = coveredBy(state, example, state.meta.alpha, `audit:${i}`);
        if (c !== undefined) covered.push(c);
      });
      if (covered.length === 0) {
        throw invalidField("examples", `None of the ${examples.length} examples can be audited: each needs metadata.evidence and a label that profile "${name}" (n = ${state.n}, minimum_n = ${state.minimumN}) has calibrated sets, intervals or claims for`);
      }
      const audit = auditCoverage(covered, state.meta.alpha);
      const result: AuditResult = {
        result: audit.result, realized_coverage: audit.realizedCoverage, ci: audit.ci, sample: audit.sample, target: audit.target, date: new Date().toISOString(),
      };
      return {
        record: { t: "audit", result, method: state.meta.method, alpha: state.meta.alpha, version: state.version },
        result: (s) => ({ status: 200, body: { ...result, profile_status: s.status, skipped: examples.length - covered.length } }),
      };
    });
  });
  router.add("GET", "/calibration-profiles/:name/audits", async (req) => ({
    status: 200,
    body: { audits: (await profiles.fetch(req.params.name!)).audits.map((a) => ({ ...a.result, method: a.method, alpha: a.alpha, profile_version: a.version })) },
  }));

  router.add("POST", "/calibration-profiles/:name/monitors", async (req) => {
    const name = req.params.name!;
    await profiles.fetch(name);
    const request = parseOrThrow(createMonitorRequestSchema, req.body, "monitor request");
    return profiles.change(name, async (state) => {
      const target = request.target ?? state.meta.alpha;
      const definition: MonitorDefinition = {
        id: `mon_${randomUUID()}`, type: request.type, target, false_alarm_rate: request.false_alarm_rate,
        labelled_sample_rate: request.labelled_sample_rate, use_judge_pseudo_labels: request.use_judge_pseudo_labels,
        created_at: new Date().toISOString(), start_n: state.n,
      };
      const monitorState: MonitorState = { eprocess: createMonitor(target, request.false_alarm_rate), status: "active", alerts: [] };
      return {
        record: { t: "monitor", monitor: definition, state: monitorState },
        result: () => ({ status: 201, body: monitorView(name, definition, monitorState) }),
      };
    });
  });
  router.add("GET", "/calibration-profiles/:name/monitors", async (req) => {
    const state = await profiles.fetch(req.params.name!);
    return { status: 200, body: { monitors: [...state.monitors.values()].map((m) => monitorView(state.name, m.definition, m.state)) } };
  });
  router.add("GET", "/calibration-profiles/:name/monitors/:id/alerts", async (req) => {
    const monitor = monitorOf(await profiles.fetch(req.params.name!), req.params.id!);
    return { status: 200, body: { alerts: monitor.state.alerts } };
  });

  router.add("GET", "/calibration-profiles/:name/examples", async (req) => {
    const state = await profiles.examplesOf(await profiles.fetch(req.params.name!));
    const offset = Math.max(0, Number(req.query.get("offset") ?? 0) || 0);
    const limit = Math.min(10_000, Math.max(1, Number(req.query.get("limit") ?? 1000) || 1000));
    return { status: 200, body: { examples: state.examplesIn(offset, offset + limit), offset, total: state.n, version: state.version } };
  });

  router.add("GET", "/backends", async () => ({ status: 200, body: { backends: await backends.list() } }));
  router.add("GET", "/human-queue", async (req) => ({
    status: 200,
    body: { items: await humanQueue.list({ profile: req.query.get("profile"), kind: req.query.get("kind") }) },
  }));
  router.add("POST", "/human-queue/:id/resolve", async (req) => ({
    status: 200, body: await resolveHumanQueueItem(req.params.id!, req.body, { humanQueue, profiles }),
  }));
  router.add("GET", "/health", () => ({ status: 200, body: { status: "ok", profiles: profiles.list().length } }));
  let openapi: string | undefined;
  router.add("GET", "/openapi.json", () => ({ status: 200, body: undefined, json: (openapi ??= JSON.stringify(evaluationServiceOpenApi())), verbatim: true }));
  return router;
}
