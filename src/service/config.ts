// The service's configuration file (`calibkit serve --config FILE`, JSON) and its defaults. Keys may be given
// in clear (hashed at load, never kept) or as `{hash: "sha256:<hex>"}`; provider credentials are named
// environment variables or files, so the file itself can be shared without secrets.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { fieldIssues, ValidationError, CalibkitError, importedModelRegion, profileNameSchema, providerFieldsShape, type ModelProvider } from "../api/index.js";
import type { AwsCredential } from "../adapters/index.js";
import { hashKey, type StoredKey } from "./auth.js";

const keySchema = z.union([
  z.string().refine((k) => k.length >= 8 && !/\s/.test(k), { message: "must be a key of at least 8 characters without spaces" }),
  z.strictObject({
    name: z.string().min(1).optional(),
    hash: z.string().regex(/^sha256:[0-9a-f]{64}$/i, { message: "must be sha256:<64 hex digits>" }),
  }),
]);

const backendConfigCommon = {
  name: profileNameSchema,
  /** Model id; default the first one the server's /v1/models lists (vllm, sglang); required for hosted providers. */
  model: z.string().min(1).optional(),
  cost_cents_per_call: z.number().min(0).default(0),
  cost_cents_per_1k_tokens: z.number().min(0).default(0),
  connection: z.string().min(1).optional(),
  /** Skip probing and trust this level (for backends that are down at start-up). */
  access_level: z.enum(["L0", "L1", "L2", "L3", "L4"]).optional(),
  /** Upper bound of tokens a stage may generate in a route cascade. */
  max_tokens: z.int().min(1).max(4096).default(64),
};
// One entry per provider, with the provider-specific fields it takes (a field another provider takes is
// refused at its path); self-hosted servers need their base_url, hosted providers default to their own endpoint.
const backendConfigOf = <P extends ModelProvider>(provider: P) =>
  z.strictObject({ provider: z.literal(provider), ...backendConfigCommon, ...providerFieldsShape(provider) });
export const backendConfigSchema = z.discriminatedUnion("provider", [
  backendConfigOf("openai"), backendConfigOf("azure-openai"), backendConfigOf("openrouter"), backendConfigOf("anthropic"),
  backendConfigOf("gemini"), backendConfigOf("bedrock"),
  backendConfigOf("vllm").extend({ base_url: z.url() }), backendConfigOf("sglang").extend({ base_url: z.url() }),
]);
export type BackendConfig = z.output<typeof backendConfigSchema>;

const envName = z.string().min(1);
// An API key (for bedrock: a Bedrock API key, sent as a bearer token), or an AWS credential (bedrock only):
// an access key from environment variables, or a profile of the shared AWS config/credentials files.
const connectionSchema = z.union([
  z.strictObject({ api_key_env: envName }),
  z.strictObject({ api_key_file: z.string().min(1) }),
  z.strictObject({ aws_access_key_id_env: envName, aws_secret_access_key_env: envName, aws_session_token_env: envName.optional() }),
  z.strictObject({ aws_profile: z.string().min(1) }),
]);
type Connection = z.output<typeof connectionSchema>;
const isAws = (c: Connection) => "aws_profile" in c || "aws_access_key_id_env" in c;

const configObject = z.strictObject({
  keys: z.array(keySchema).default([]),
  backends: z.array(backendConfigSchema).default([]),
  connections: z.record(z.string(), connectionSchema).default({}),
  rate_limit: z
    .strictObject({ requests_per_second: z.number().min(0).default(2000), burst: z.number().min(1).default(4000) })
    .default({ requests_per_second: 2000, burst: 4000 }),
  max_body_bytes: z.int().min(1024).max(1 << 30).default(16 * 1024 * 1024),
  overload: z
    .strictObject({ max_in_flight: z.int().min(1).default(1024), max_event_loop_lag_ms: z.number().min(1).default(500) })
    .default({ max_in_flight: 1024, max_event_loop_lag_ms: 500 }),
  /** Serve GET /metrics without a key even when keys are configured (for a scraper inside a trusted network). */
  metrics_open: z.boolean().default(false),
  /** Failed authentications a minute from one client address before it gets 429 (docs/service.md). */
  failed_auth_per_minute: z.int().min(1).default(20),
  /** Milliseconds a request body may take to arrive after its headers (408 and a closed connection after). */
  body_timeout_ms: z.int().min(100).default(10_000),
  /** Open connections per client address; more are answered 429 and closed. */
  max_connections_per_client: z.int().min(1).default(128),
  /** Examples a label-with-judge job labels per backend call batch, and the per-call timeout. */
  backend_timeout_ms: z.int().min(100).default(30_000),
});
// A backend's connection must be configured, and of the kind its provider takes; an imported bedrock model
// is named by its ARN, whose region is the backend's.
export const configSchema = configObject.superRefine((config, ctx) => {
  config.backends.forEach((b, i) => {
    if (b.provider === "bedrock" && b.custom_model_import) {
      const region = b.model === undefined ? undefined : importedModelRegion(b.model);
      if (!region) ctx.addIssue({ code: "custom", path: ["backends", i, "model"], message: "must be the imported model's ARN (arn:aws:bedrock:<region>:<account>:imported-model/<id>) when custom_model_import is true" });
      else if (b.region !== undefined && b.region !== region) ctx.addIssue({ code: "custom", path: ["backends", i, "region"], message: `is ${b.region}, but the imported model's ARN is in ${region}` });
    }
    if (b.connection === undefined) return;
    const c = config.connections[b.connection];
    const path = ["backends", i, "connection"];
    if (!c) ctx.addIssue({ code: "custom", path, message: `names connection "${b.connection}", which \`connections\` does not configure` });
    else if (isAws(c) && b.provider !== "bedrock") ctx.addIssue({ code: "custom", path, message: `connection "${b.connection}" holds an AWS credential, which only bedrock takes` });
  });
});
export type ServiceConfigInput = z.input<typeof configSchema>;
export type ServiceConfig = z.output<typeof configSchema>;

export function parseConfig(value: unknown): ServiceConfig {
  const result = configSchema.safeParse(value);
  if (!result.success) throw new ValidationError("service configuration", fieldIssues(result.error));
  return result.data;
}

export async function loadConfigFile(path: string): Promise<ServiceConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new CalibkitError("CONFIG_UNREADABLE", `Cannot read the configuration file ${path}: ${(err as Error).message}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CalibkitError("CONFIG_INVALID", `The configuration file ${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  return parseConfig(json);
}

/** Digests of the configured keys; clear keys are hashed here and dropped. */
export function storedKeys(config: ServiceConfig): StoredKey[] {
  return config.keys.map((key, i) =>
    typeof key === "string"
      ? { name: `key${i + 1}`, digest: hashKey(key) }
      : { name: key.name ?? `key${i + 1}`, digest: Buffer.from(key.hash.slice(7), "hex") },
  );
}

/** A connection's credential: an API key, or an AWS credential for bedrock. */
export interface ConnectionCredential {
  apiKey?: string | undefined;
  aws?: AwsCredential | undefined;
}

/** The credential of a named connection, read from its environment variables or file; never logged or returned. */
export async function connectionCredential(config: ServiceConfig, name: string | undefined): Promise<ConnectionCredential> {
  const c = name ? config.connections[name] : undefined;
  if (!c) return {};
  if ("api_key_env" in c) return { apiKey: process.env[c.api_key_env] };
  if ("api_key_file" in c) return { apiKey: (await readFile(c.api_key_file, "utf8")).trim() };
  if ("aws_profile" in c) return { aws: { profile: c.aws_profile } };
  const accessKeyId = process.env[c.aws_access_key_id_env];
  const secretAccessKey = process.env[c.aws_secret_access_key_env];
  // Names the variables, never their values.
  if (!accessKeyId || !secretAccessKey) throw new CalibkitError("CONNECTION_UNSET", `connection "${name}": ${!accessKeyId ? c.aws_access_key_id_env : c.aws_secret_access_key_env} is not set in the environment`);
  const sessionToken = c.aws_session_token_env ? process.env[c.aws_session_token_env] : undefined;
  return { aws: { accessKeyId, secretAccessKey, sessionToken } };
}
