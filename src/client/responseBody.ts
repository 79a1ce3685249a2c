// Parses a successful answer with its schema; a body that is not JSON or misses the spec becomes a
// ResponseFormatError naming the field, never a raw zod error.
import type { z } from "zod";
import { fieldIssues } from "../api/index.js";
import { ResponseFormatError } from "./errors.js";
import type { RawResponse } from "./httpTransport.js";

export function describeBody(raw: RawResponse): string {
  const type = raw.headers["content-type"] ?? "no content type";
  const text = raw.text.length > 200 ? `${raw.text.slice(0, 200)}…` : raw.text;
  return `${String(type)}: ${JSON.stringify(text)}`;
}

export function parseResponseBody<S extends z.ZodType>(schema: S, raw: RawResponse, what: string): z.output<S> {
  const requestId = raw.headerRequestId;
  if (raw.json === undefined) {
    throw new ResponseFormatError(`${what}: expected a JSON body with status ${raw.status}, got ${describeBody(raw)}`, {
      status: raw.status, requestId, cause: raw.jsonError,
    });
  }
  const result = schema.safeParse(raw.json);
  if (result.success) return result.data;
  const issues = fieldIssues(result.error);
  throw new ResponseFormatError(`${what}: the body does not match the spec: ${issues.map((i) => i.message).join("; ")}`, {
    status: raw.status, requestId, issues, cause: result.error,
  });
}
