// Method + path matching for the service's endpoints: `/calibration-profiles/:name/monitors/:id/alerts`.
// Parameters are percent-decoded; a path that exists under another method is reported so the caller can 405.
import type { IncomingHttpHeaders } from "node:http";

export interface ServiceRequest {
  id: string;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined for GET). */
  body: unknown;
  /** Raw body bytes, for idempotency fingerprints. */
  rawBody: Buffer | undefined;
  /** Key name, or "anonymous" on an open service. */
  principal: string;
  params: Record<string, string>;
}

export interface ServiceResponse {
  status: number;
  body: unknown;
  /** The body as JSON, when the handler wrote it (JSON.stringify(body) gives the same text): an object's, with no `request_id`. */
  json?: string;
  /**
   * The body as JSON in pieces, for a large one: an object's text with no `request_id` and its closing brace left
   * off, written a few pieces a turn (one 17 MB string took the event loop for most of a second to build and send).
   */
  chunks?: readonly Buffer[];
  /** `json` is sent as it is, without `request_id` (a document a tool reads, such as the OpenAPI document). */
  verbatim?: boolean;
}

export type Handler = (request: ServiceRequest) => Promise<ServiceResponse> | ServiceResponse;

interface Route {
  method: string;
  segments: string[];
  pattern: string;
  handler: Handler;
}

export type RouteMatch =
  | { kind: "found"; handler: Handler; params: Record<string, string>; pattern: string }
  | { kind: "wrong_method"; allowed: string[] }
  | { kind: "none" };

export class Router {
  private readonly routes: Route[] = [];
  /** Parameterless routes by path, then method: the answer `match` would give, found without walking the list. */
  private readonly exact = new Map<string, Map<string, Handler>>();

  add(method: string, pattern: string, handler: Handler): this {
    const segments = pattern.split("/").filter(Boolean);
    const path = `/${segments.join("/")}`;
    // Only when no earlier route answers the same method and path (the list's first match wins).
    if (!segments.some((s) => s.startsWith(":")) && !this.routes.some((r) => r.method === method && matchSegments(r.segments, segments))) {
      let byMethod = this.exact.get(path);
      if (!byMethod) this.exact.set(path, (byMethod = new Map()));
      if (!byMethod.has(method)) byMethod.set(method, handler);
    }
    this.routes.push({ method, segments, pattern: path, handler });
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const handler = this.exact.get(path)?.get(method);
    if (handler) return { kind: "found", handler, params: {}, pattern: path };
    const parts = path.split("/").filter(Boolean);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: "found", handler: route.handler, params, pattern: route.pattern };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: "wrong_method", allowed } : { kind: "none" };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(":")) {
      let value: string;
      try {
        value = decodeURIComponent(parts[i]!);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = value;
    } else if (p !== parts[i]) {
      return undefined;
    }
  }
  return params;
}
