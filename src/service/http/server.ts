// The HTTP layer: request id, auth, rate limit, shedding, routing, content type, bounded body, JSON parse,
// then the handler; every outcome leaves as a JSON body with `x-request-id`. Handlers never see raw HTTP.
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { ANONYMOUS, type Authenticator } from "../auth.js";
import { METRICS_PATH, type ServiceMetrics, type ShedReason } from "./metrics.js";
import { checkJsonDepth, MAX_JSON_DEPTH } from "./jsonDepth.js";
import { JsonMembersError, parseJsonInSlices } from "./jsonSlices.js";
import { badJson, invalidField, methodNotAllowed, notFound, payloadTooLarge, requestTimeout, ServiceError, unsupportedMediaType } from "../errors.js";
import type { AuthThrottle, LoadShedder, RateLimiter } from "../rateLimit.js";
import { mapError } from "./errorMapping.js";
import type { Handler, Router, ServiceRequest, ServiceResponse } from "./router.js";

export const BASE_PATH = "/api/v1";

export interface HttpLayerOptions {
  router: Router;
  auth: Authenticator;
  rateLimiter: RateLimiter;
  shedder: LoadShedder;
  maxBodyBytes: number;
  /** Failed authentications per client address; undefined: not throttled. */
  authThrottle?: AuthThrottle | undefined;
  /** Prometheus metrics, served at GET /metrics; undefined: none. */
  metrics?: ServiceMetrics | undefined;
  /** Serve /metrics without a key even when keys are configured. Default false. */
  metricsOpen?: boolean | undefined;
  /** Milliseconds a request body may take to arrive, counted from its headers (408 after). Default 10 s. */
  bodyTimeoutMs?: number | undefined;
  log: (line: string) => void;
}

/** The health check: never shed, so that an overloaded service still says it is alive. */
const HEALTH_PATH = "/health";

const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === "string" && REQUEST_ID.test(header) ? header : `req_${randomUUID()}`;
}

/**
 * The JSON of a response body, with `request_id` added last to an object. Written into the text rather than
 * spread into a copy of the body: V8 gave the spread copies' serialisation old-generation memory, which then
 * filled about a hundred times faster, with a full collection every ten seconds or so under load and latency
 * episodes of tens of milliseconds around each.
 */
function withRequestId(body: unknown, id: string): string {
  const json = JSON.stringify(body);
  if (body === null || typeof body !== "object" || Array.isArray(body) || json === undefined || !json.startsWith("{")) return json;
  if (Object.hasOwn(body, "request_id")) return JSON.stringify({ ...body, request_id: id });
  return addRequestId(json, id);
}

/** An object's JSON (with no `request_id`) with `request_id` added last. */
const addRequestId = (json: string, id: string): string => `${json.length > 2 ? `${json.slice(0, -1)},` : "{"}"request_id":${JSON.stringify(id)}}`;

/** Node knows no reason phrase for 529 (it would send "unknown"). */
const SITE_OVERLOADED = "Site Overloaded";

function send(res: ServerResponse, status: number, id: string, payload: string, extra?: Record<string, string>): void {
  // The flat [name, value, …] form: node stores it without walking an object.
  const headers = ["content-type", "application/json; charset=utf-8", "content-length", String(Buffer.byteLength(payload)), "x-request-id", id];
  if (extra) for (const name of Object.keys(extra)) headers.push(name, extra[name]!);
  if (status === 529) res.writeHead(status, SITE_OVERLOADED, headers);
  else res.writeHead(status, headers);
  res.end(payload);
}

/** Bytes of a chunked body written in one turn of the event loop. */
const BYTES_PER_TURN = 1024 * 1024;

/** A response body in pieces (ServiceResponse.chunks), written BYTES_PER_TURN at a time; `done` once it is all out. */
function sendChunks(res: ServerResponse, status: number, id: string, chunks: readonly Buffer[], done: () => void): void {
  const tail = Buffer.from(`,"request_id":${JSON.stringify(id)}}`);
  let length = tail.length;
  for (const chunk of chunks) length += chunk.length;
  res.writeHead(status, ["content-type", "application/json; charset=utf-8", "content-length", String(length), "x-request-id", id]);
  let next = 0;
  const turn = () => {
    if (res.destroyed) return done();
    let written = 0;
    while (next < chunks.length && written < BYTES_PER_TURN) {
      written += chunks[next]!.length;
      res.write(chunks[next++]);
    }
    if (next < chunks.length) setImmediate(turn);
    else {
      res.end(tail);
      done();
    }
  };
  turn();
}

/**
 * Reads the body (at most `limit` bytes) and calls `done` once: with the bytes, or with the error. Callbacks, not a
 * promise: this runs for every request, and the promise machinery cost more than the read (docs/service.md).
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number, done: (err: unknown, body?: Buffer) => void): void {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    done(payloadTooLarge(limit));
    return;
  }
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let failed = false;
  // A body of its own deadline: a client that sends headers and then trickles (or nothing) holds a connection
  // for this long at most, not for Node's request timeout.
  const deadline = setTimeout(() => {
    if (failed) return;
    failed = true;
    done(requestTimeout(timeoutMs));
  }, timeoutMs);
  deadline.unref();
  req.on("data", (chunk: Buffer) => {
    if (failed) return;
    size += chunk.length;
    if (size > limit) {
      failed = true;
      clearTimeout(deadline);
      done(payloadTooLarge(limit));
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  req.on("end", () => {
    clearTimeout(deadline);
    if (!failed) done(undefined, chunks ? Buffer.concat(chunks) : first ?? Buffer.alloc(0));
  });
  req.on("error", (err) => {
    clearTimeout(deadline);
    if (!failed) done(err);
    failed = true;
  });
}

/** Bodies from this size on are parsed in slices (jsonSlices.ts) and handled on a turn of their own. */
const SPLIT_TURN_BYTES = 64 * 1024;

/** A request target that the URL parser would return unchanged: a path of plain characters, no dot segment. */
const PLAIN_PATH = /^\/(?!\/)(?:[A-Za-z0-9_~-]|\.(?<!\/\.)|\/)*$/;

/** Path and query of a request target; `new URL` (which normalises) unless the target is a plain path. */
function parseTarget(target: string): { pathname: string; query: URLSearchParams } {
  if (PLAIN_PATH.test(target)) return { pathname: target, query: new URLSearchParams() };
  const url = new URL(target, "http://service");
  return { pathname: url.pathname, query: url.searchParams };
}

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  if (value === "application/json") return true;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) throw badJson("The request body is empty; send a JSON object");
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch (err) {
    throw badJson(`The request body is not valid JSON: ${(err as Error).message}`);
  }
  checkJsonDepth(body, raw);
  return body;
}

/** parseJson for a large body, in slices of a few milliseconds (a second's parse would stall every client). */
function parseLargeJson(raw: Buffer, done: (err: unknown, body?: unknown) => void): void {
  parseJsonInSlices(raw.toString("utf8"), (err, parsed) => {
    if (err instanceof JsonMembersError) {
      const field = err.path.join(".");
      return done(invalidField(field, `\`${field}\` ${err.message}`));
    }
    if (err !== undefined) return done(badJson(`The request body is not valid JSON: ${(err as Error).message}`));
    try {
      // The walk for the offending field only when the text nests too deep.
      if (parsed!.nesting > MAX_JSON_DEPTH) checkJsonDepth(parsed!.value);
    } catch (depthError) {
      return done(depthError);
    }
    done(undefined, parsed!.value);
  });
}

export function createHttpHandler(options: HttpLayerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { router, auth, rateLimiter, shedder, maxBodyBytes, authThrottle, metrics, log } = options;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;

  return (req, res) => {
    const id = requestIdOf(req.headers["x-request-id"]);
    const started = performance.now();
    let admitted = false;
    let answered = false;
    /** The endpoint's pattern once matched: the route label of the request's metrics. */
    let route = "unmatched";
    /** What a refusal thrown now would be counted as. */
    let refusal: ShedReason | undefined;
    const leave = (status: number) => {
      if (admitted) shedder.leave();
      admitted = false;
      if (metrics) {
        metrics.observe(route, req.method ?? "GET", status, (performance.now() - started) / 1000);
        if (refusal !== undefined && (status === 429 || status === 529)) metrics.refused(refusal);
      }
    };
    // Neither reply nor fail ever throws: they run from promise callbacks, where a throw would be an
    // unhandled rejection. A body that cannot be written (a BigInt, a cycle) becomes a 500; a failing socket
    // is destroyed.
    const reply = (response: ServiceResponse) => {
      if (answered) return;
      if (response.chunks !== undefined) {
        answered = true;
        sendChunks(res, response.status, id, response.chunks, () => leave(response.status));
        return;
      }
      let payload: string;
      try {
        payload = response.json !== undefined ? (response.verbatim ? response.json : addRequestId(response.json, id)) : withRequestId(response.body, id);
      } catch (err) {
        fail(err);
        return;
      }
      answered = true;
      try {
        send(res, response.status, id, payload);
      } catch (err) {
        log(`${id} ${req.method} ${req.url}: the response could not be written: ${err instanceof Error ? err.message : String(err)}`);
        res.destroy();
      } finally {
        leave(response.status);
      }
    };
    const fail = (err: unknown) => {
      if (answered) return;
      answered = true;
      let status = 500;
      try {
        const mapped = mapError(err);
        status = mapped.status;
        // A 503 is an expected, passing state (a profile still loading, the store away) and says its cause in
        // its message; only an unexpected failure earns a stack trace.
        if (mapped.status === 503) log(`${id} ${req.method} ${req.url}: 503 ${err instanceof Error ? err.message : String(err)}`);
        else if (mapped.status >= 500 && mapped.status !== 502 && mapped.status !== 529) {
          log(`${id} ${req.method} ${req.url}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        }
        const headers: Record<string, string> = {};
        if (mapped.retryAfter !== undefined) headers["retry-after"] = String(mapped.retryAfter);
        // An unread (or oversized, or late) body cannot be skipped reliably on a kept-alive connection: close it.
        if (mapped.status === 413 || mapped.status === 408) headers.connection = "close";
        if (!req.complete) req.resume();
        if (!res.headersSent) send(res, mapped.status, id, withRequestId(mapped.body, id), headers);
        else res.destroy();
      } catch {
        res.destroy();
      } finally {
        leave(status);
      }
    };
    // A handler's answer, now or later; whatever it throws or rejects with becomes the error response.
    const dispatch = (handler: Handler, request: ServiceRequest) => {
      try {
        const response = handler(request);
        if (typeof (response as PromiseLike<ServiceResponse>).then === "function") (response as PromiseLike<ServiceResponse>).then(reply, fail);
        else reply(response as ServiceResponse);
      } catch (err) {
        fail(err);
      }
    };

    try {
      const { pathname, query } = parseTarget(req.url ?? "/");
      const method = req.method ?? "GET";
      const scrape = metrics !== undefined && pathname === METRICS_PATH && method === "GET";
      let principal = ANONYMOUS;
      if (!(scrape && options.metricsOpen)) {
        const address = req.socket.remoteAddress ?? "";
        if (authThrottle && auth.required) {
          refusal = "auth_throttled";
          authThrottle.check(address);
          refusal = undefined;
          try {
            principal = auth.authenticate(req.headers.authorization);
          } catch (err) {
            if (err instanceof ServiceError && err.status === 401) authThrottle.failed(address);
            throw err;
          }
        } else {
          principal = auth.authenticate(req.headers.authorization);
        }
      }
      if (scrape) {
        // Never shed nor rate limited: an overloaded service is what an operator scrapes to see.
        route = METRICS_PATH;
        metrics.scrape().then(({ contentType, text }) => {
          answered = true;
          res.writeHead(200, ["content-type", contentType, "content-length", String(Buffer.byteLength(text)), "x-request-id", id]);
          res.end(text);
          leave(200);
        }, fail);
        return;
      }
      refusal = "rate_limited";
      rateLimiter.take(principal);
      refusal = undefined;
      if (!pathname.startsWith(`${BASE_PATH}/`)) throw notFound(`No endpoint at ${pathname}; the API lives under ${BASE_PATH}`);
      const path = pathname.slice(BASE_PATH.length);
      const match = router.match(method, path);
      if (match.kind === "none") throw notFound(`No endpoint ${method} ${BASE_PATH}${path}`);
      if (match.kind === "wrong_method") throw methodNotAllowed(method, `${BASE_PATH}${path} (allowed: ${match.allowed.join(", ")})`);
      route = `${BASE_PATH}${match.pattern}`;
      const request: ServiceRequest = { id, method, path, query, headers: req.headers, body: undefined, rawBody: undefined, principal, params: match.params };
      if (method !== "POST" && method !== "PUT" && method !== "PATCH") {
        if (path !== HEALTH_PATH) {
          refusal = "overloaded";
          shedder.enter();
          refusal = undefined;
          admitted = true;
        }
        dispatch(match.handler, request);
        return;
      }
      const type = req.headers["content-type"];
      if (!isJsonContentType(type)) throw unsupportedMediaType(type);
      // In flight from the moment its body is in: connections still sending hold no place a served request could use.
      readBody(req, maxBodyBytes, bodyTimeoutMs, (err, raw) => {
        if (err !== undefined) return fail(err);
        try {
          refusal = "overloaded";
          shedder.enter();
          refusal = undefined;
          admitted = true;
          request.rawBody = raw;
          if (raw!.length < SPLIT_TURN_BYTES) {
            request.body = parseJson(raw!);
            dispatch(match.handler, request);
            return;
          }
        } catch (parseError) {
          return fail(parseError);
        }
        // A large body (a batch of examples) is parsed in slices, and its handler runs on a turn of its own, so
        // that the requests that came meanwhile are not held behind it.
        parseLargeJson(raw!, (parseError, body) => {
          if (parseError !== undefined) return fail(parseError);
          request.body = body;
          setImmediate(() => dispatch(match.handler, request));
        });
      });
    } catch (err) {
      fail(err);
    }
  };
}
