// bedrock through the official `@aws-sdk/client-bedrock-runtime` Converse API in `region`: sampling only
// (L0; Converse returns no log-probabilities), one text a request. Credentials are the connection's access
// key (or named profile), else the SDK's standard chain, and requests are SigV4-signed; or a Bedrock API key,
// sent as a bearer token. An imported model
// (`custom_model_import`) is called by its ARN, in the ARN's region. The SDK's retries are off (its quota
// and full-jitter backoff differ from the other providers'): the shared policy (retry.ts) retries.
import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandOutput } from "@aws-sdk/client-bedrock-runtime";
import { importedModelRegion } from "../../api/index.js";
import { AdapterError } from "../errors.js";
import type { ChatAnswer, ChatTurn, ProviderClient } from "./hostedAdapter.js";
import { isConnectionError, retryAfterMs, withRetries, type AttemptFailure, type RetryPolicy } from "./retry.js";

/** A connection's AWS credential: an access key, or a profile of the shared config/credentials files. */
export type AwsCredential =
  | { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined }
  | { profile: string };

export interface BedrockOptions {
  model: string;
  region?: string | undefined;
  baseUrl?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  customModelImport?: boolean | undefined;
  /** Default: the SDK's standard chain (environment, shared files, SSO, web identity, container, instance). */
  aws?: AwsCredential | undefined;
  /** A Bedrock API key: sent as a bearer token instead of signing (when no `aws` credential is given). */
  apiKey?: string | undefined;
}

function failureOf(err: unknown): AttemptFailure {
  const e = err as { $metadata?: { httpStatusCode?: number }; $response?: { headers?: Record<string, string> } };
  const headers = e?.$response?.headers ?? {};
  const header = (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return { status: e?.$metadata?.httpStatusCode, retryAfterMs: retryAfterMs(header), connection: isConnectionError(err) };
}

export class BedrockClient implements ProviderClient {
  readonly provider = "bedrock";
  readonly model: string;
  readonly maxPerRequest = 1;
  readonly settings: Record<string, unknown>;
  readonly #sdk: BedrockRuntimeClient;
  readonly #policy: RetryPolicy;

  constructor(private readonly o: BedrockOptions) {
    this.model = o.model;
    let region = o.region;
    if (o.customModelImport) {
      const arnRegion = importedModelRegion(o.model);
      if (!arnRegion) throw new AdapterError(`bedrock: custom_model_import needs model to be an imported model's ARN (arn:aws:bedrock:<region>:<account>:imported-model/<id>), not "${o.model}"`);
      if (region && region !== arnRegion) throw new AdapterError(`bedrock: the imported model's ARN is in ${arnRegion}, but region is ${region}`);
      region = arnRegion;
    }
    this.settings = { base_url: o.baseUrl, region, custom_model_import: o.customModelImport };
    this.#policy = { maxRetries: o.maxRetries, timeoutMs: o.timeoutMs };
    const aws = o.aws;
    this.#sdk = new BedrockRuntimeClient({
      maxAttempts: 1,
      ...(region ? { region } : {}),
      ...(o.baseUrl ? { endpoint: o.baseUrl } : {}),
      ...(aws && "profile" in aws ? { profile: aws.profile } : {}),
      ...(aws && "accessKeyId" in aws ? { credentials: { accessKeyId: aws.accessKeyId, secretAccessKey: aws.secretAccessKey, ...(aws.sessionToken ? { sessionToken: aws.sessionToken } : {}) } } : {}),
      ...(!aws && o.apiKey ? { token: { token: o.apiKey }, authSchemePreference: ["httpBearerAuth"] } : {}),
    });
  }

  close(): void {
    this.#sdk.destroy();
  }

  async chat(turn: ChatTurn): Promise<ChatAnswer> {
    const command = new ConverseCommand({
      modelId: this.o.model,
      messages: [{ role: "user", content: [{ text: turn.prompt }] }],
      inferenceConfig: { maxTokens: turn.maxTokens, temperature: Math.min(turn.temperature, 1), ...(turn.stop ? { stopSequences: turn.stop } : {}) },
    });
    const res = await withRetries("bedrock", this.#policy, (abortSignal) => this.#sdk.send(command, { abortSignal }), failureOf, turn.signal);
    return answerOf(res);
  }
}

function answerOf(res: ConverseCommandOutput): ChatAnswer {
  const content = res?.output?.message?.content;
  if (!Array.isArray(content)) throw new Error("bedrock answered a body without output.message.content[]");
  const u = res.usage;
  return {
    texts: [content.map((b) => b.text ?? "").join("")],
    firstTokenTop: undefined,
    usage: u ? { promptTokens: u.inputTokens ?? 0, completionTokens: u.outputTokens ?? 0 } : undefined,
  };
}
