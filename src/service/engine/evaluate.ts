// POST /evaluate: validates the request and answers it (answer.ts); a large request is validated and answered a
// slice of queries at a time (evaluateSlices.ts), so that it never holds the event loop for long.
import { parseEvaluateRequest } from "../../api/index.js";
import type { ServiceResponse } from "../http/router.js";
import { answerRequest, respond, type EvaluateDeps } from "./answer.js";
import { evaluateInSlices, SLICED_BODY_BYTES } from "./evaluateSlices.js";

export type { EvaluateDeps } from "./answer.js";

/**
 * The response, at once when every query is answered from evidence in hand; a promise when a backend is called
 * or the request is large. `body` is the request body as JSON.parse returned it, `bodyBytes` its size;
 * `requestId` the one the response carries (it seeds the randomized predictions, seeds.ts).
 */
export function evaluate(body: unknown, deps: EvaluateDeps, requestId: string, bodyBytes = 0): ServiceResponse | Promise<ServiceResponse> {
  if (bodyBytes >= SLICED_BODY_BYTES) return evaluateInSlices(body, deps, requestId);
  const answered = answerRequest(parseEvaluateRequest(body), deps, requestId);
  return answered instanceof Promise ? answered.then(respond) : respond(answered);
}

