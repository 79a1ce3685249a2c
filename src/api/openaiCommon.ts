// What the OpenAI-compatible completions and chat endpoints share on the wire: sampling parameters, the
// refusal of a parameter by name, the error body OpenAI's SDKs read (`error.param`, `error.code`), usage.
import { z } from "zod";
import { fieldIssues } from "./validate.js";

/** null means absent: Python clients send `None` for every parameter they leave unset. */
export const nullish = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === null ? undefined : v), schema.optional());

/** The error code OpenAI gives a parameter it knows but this server does not implement. */
export const UNSUPPORTED = "unsupported_parameter";

/**
 * A parameter this server does not implement: absent, null, or a value that asks for nothing (`isNoOp`) passes;
 * any other value is refused with `why`, naming the parameter, never silently dropped.
 */
export function refused(why: string, isNoOp: (v: unknown) => boolean = () => false) {
  return z.unknown().superRefine((v, ctx) => {
    if (v === undefined || v === null || isNoOp(v)) return;
    ctx.addIssue({ code: "custom", message: why, params: { openai_code: UNSUPPORTED } });
  }).optional();
}

/** `[]` or `{}`: a list or map that asks for nothing. */
export const emptyArrayOrObject = (v: unknown) =>
  (Array.isArray(v) && v.length === 0) || (typeof v === "object" && v !== null && Object.keys(v).length === 0);

/** Sampling and stopping parameters both endpoints honour. */
export const samplingShape = {
  model: nullish(z.string()),
  temperature: nullish(z.number().min(0).max(10)),
  top_p: nullish(z.number().gt(0).max(1)),
  seed: nullish(z.int()),
  stop: nullish(z.union([z.string(), z.array(z.string()).max(16)])),
  n: nullish(z.int().min(1).max(64)),
  frequency_penalty: nullish(z.number().min(-2).max(2)),
  presence_penalty: nullish(z.number().min(-2).max(2)),
  /** Token id (as a string key) → bias added to its logit, -100 to 100. */
  logit_bias: nullish(z.record(z.string().regex(/^\d+$/, "must be a token id"), z.number().min(-100).max(100))),
  stream: nullish(z.boolean()),
  stream_options: nullish(z.strictObject({
    include_usage: nullish(z.boolean()),
    include_obfuscation: refused("is not supported: chunks are sent without obfuscation padding", (v) => v === false),
  })),
  /** llama.cpp's and vLLM's extension: keep generating past the end-of-sequence token. */
  ignore_eos: nullish(z.boolean()),
  /** Informational only (OpenAI uses them for abuse monitoring and caching); they change no output. */
  user: nullish(z.string()),
  metadata: nullish(z.record(z.string(), z.string())),
  safety_identifier: nullish(z.string()),
  prompt_cache_key: nullish(z.string()),
  store: refused("is not supported: completions are never stored", (v) => v === false),
  service_tier: refused("is not supported: there is one tier", (v) => v === "auto" || v === "default"),
} as const;

/** `stream_options` only means something on a streamed request (as OpenAI answers). */
export function streamOptionsNeedStream(body: { stream?: boolean | undefined; stream_options?: unknown }, ctx: z.RefinementCtx): void {
  if (body.stream_options !== undefined && body.stream !== true) {
    ctx.addIssue({ code: "custom", path: ["stream_options"], message: "is only allowed when `stream` is true" });
  }
}

export const tokenUsageSchema = z.looseObject({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() });
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

export const usageOf = (prompt: number, completion: number): TokenUsage =>
  ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });

export const openAIErrorBodySchema = z.looseObject({
  error: z.looseObject({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type OpenAIErrorBody = z.infer<typeof openAIErrorBodySchema>;

export function openAIErrorBody(message: string, type: string, param: string | null = null, code: string | null = null): OpenAIErrorBody {
  return { error: { message, type, param, code } };
}

/** The first offending parameter of a rejected request, as OpenAI names it: `messages[0].content`. */
export interface RequestIssue {
  param: string;
  message: string;
  /** `unsupported_parameter`, `unknown_parameter` or `invalid_value`. */
  code: string;
}

const bracketed = (path: readonly PropertyKey[]) =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i > 0 ? "." : ""}${String(p)}`)).join("");

export function requestIssue(error: z.core.$ZodError): RequestIssue {
  const issue = error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const param = bracketed([...issue.path, issue.keys[0]!]);
    return { param, code: "unknown_parameter", message: `Unrecognized request argument supplied: ${param}` };
  }
  const param = bracketed(issue.path);
  const sentence = fieldIssues(new z.ZodError([issue]))[0]!.message.replace(/`[^`]*`/, `\`${param}\``);
  const code = (issue as { params?: { openai_code?: string } }).params?.openai_code ?? "invalid_value";
  return { param, code, message: sentence };
}
