// The evaluate request parsed by zod's compiled code (z.compile) where it can be: the schema walk cost about as
// much as the rest of an evaluate together (docs/service.md, "Performance"). Nothing of the wire format is
// written here; the compiled code is generated from the schemas of evaluate.ts when first used.
import { z } from "zod";
import { commonEvaluateRequestSchema, evaluateRequestSchema } from "./evaluate.js";

type Parser = (input: unknown) => unknown;

let compiled: { schema: typeof evaluateRequestSchema; common: Parser | undefined } | undefined;

/**
 * The compiled parser of the common request (client evidence, set queries): the parsed request, or z.INVALID for
 * anything else, valid or not; undefined where zod cannot compile the schema (it is then parsed by zod alone).
 */
function commonParser(): Parser | undefined {
  try {
    // compileFn is the parser z.compile installs; z.compile's own schema would answer an uncommon request by
    // running the narrowed schema's interpreter (to find its errors) before the whole schema's, twice the work.
    return z.core.compileFn(commonEvaluateRequestSchema) as Parser;
  } catch {
    return undefined;
  }
}

/**
 * `evaluateRequestSchema` with the compiled common request as its fast path (z.withParser): what the compiled
 * code does not accept is parsed by the schema as before, so every error is the schema's.
 */
export function compiledEvaluateRequestSchema(): typeof evaluateRequestSchema {
  if (compiled === undefined) {
    const common = commonParser();
    compiled = { schema: common ? z.withParser(evaluateRequestSchema, common as never) : evaluateRequestSchema, common };
  }
  return compiled.schema;
}

/** The compiled common-request parser itself, for the test that holds it against the schema. */
export function commonEvaluateRequestParser(): Parser | undefined {
  compiledEvaluateRequestSchema();
  return compiled!.common;
}
