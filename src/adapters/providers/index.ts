// Hosted provider adapters, each through its provider's official SDK (docs/service.md "Providers"). Opening
// one makes a one-token request: it proves the endpoint and credential answer, and for the OpenAI family and
// gemini whether the model returns log-probabilities (L1) or text only (L0).
import type { AccessLevel } from "../../api/index.js";
import { AdapterError } from "../errors.js";
import type { AwsCredential } from "./bedrockConverse.js";
import { HostedAdapter, type ProviderClient } from "./hostedAdapter.js";

export { HostedAdapter } from "./hostedAdapter.js";
export type { AwsCredential } from "./bedrockConverse.js";

export interface HostedBackendOptions {
  provider: string;
  model?: string | undefined;
  base_url?: string | undefined;
  apiKey: string | undefined;
  /** bedrock only: the connection's AWS credential; default the SDK's standard chain. */
  aws?: AwsCredential | undefined;
  /** Milliseconds one attempt may take. */
  timeoutMs: number;
  /** Retries of a 429, 408/409, 5xx or timeout before the call fails (with backoff). Default 3. */
  maxRetries?: number;
  deployment?: string; api_version?: string; reasoning_effort?: string; effort?: string;
  upstream?: string; pin_upstream?: boolean;
  thinking_level?: string; sample_count?: number;
  region?: string; custom_model_import?: boolean;
}

export const HOSTED_PROVIDERS = ["openai", "azure-openai", "openrouter", "anthropic", "gemini", "bedrock"] as const;

// Each provider's client module is imported when a backend of that provider is opened: the SDKs take 0.15–0.5 s
// each to load, which a process without hosted backends (the service, a local run) never pays.
async function clientOf(o: HostedBackendOptions, model: string): Promise<ProviderClient> {
  const common = { model, apiKey: o.apiKey, baseUrl: o.base_url, timeoutMs: o.timeoutMs, maxRetries: o.maxRetries ?? 3 };
  switch (o.provider) {
    case "openai": case "azure-openai": case "openrouter": {
      const { OpenAIChatClient } = await import("./openaiChat.js");
      return new OpenAIChatClient({ ...common, provider: o.provider, deployment: o.deployment, apiVersion: o.api_version, reasoningEffort: o.reasoning_effort, upstream: o.upstream, pinUpstream: o.pin_upstream });
    }
    case "anthropic": {
      const { AnthropicClient } = await import("./anthropicMessages.js");
      return new AnthropicClient({ ...common, effort: o.effort });
    }
    case "gemini": {
      const { GeminiClient } = await import("./geminiGenerate.js");
      return new GeminiClient({ ...common, thinkingLevel: o.thinking_level, sampleCount: o.sample_count });
    }
    case "bedrock": {
      const { BedrockClient } = await import("./bedrockConverse.js");
      return new BedrockClient({ ...common, region: o.region, customModelImport: o.custom_model_import, aws: o.aws });
    }
    default:
      throw new AdapterError(`provider "${o.provider}" has no hosted adapter in this version (supported: ${HOSTED_PROVIDERS.join(", ")})`);
  }
}

export async function openHostedAdapter(o: HostedBackendOptions): Promise<HostedAdapter> {
  const model = o.model ?? o.deployment;
  if (!model) throw new AdapterError(`provider "${o.provider}" needs a model`);
  const client = await clientOf(o, model);
  // Reasoning models, the Messages API and Converse return no log-probabilities: L0 without asking for them.
  const mayLogprob = o.provider !== "anthropic" && o.provider !== "bedrock" && o.reasoning_effort === undefined;
  const ask = (logprobs: boolean) => client.chat({ prompt: "Say OK.", n: 1, temperature: 0, maxTokens: 1, seed: 0, logprobs });
  let probe: Awaited<ReturnType<typeof ask>> | undefined;
  try {
    probe = await ask(mayLogprob);
  } catch (err) {
    // A Gemini model without log-probabilities refuses `responseLogprobs` with a 400: it is L0.
    if (!(mayLogprob && o.provider === "gemini" && (await import("./geminiGenerate.js")).isLogprobsRefusal(err))) throw err;
    await ask(false);
  }
  const level: AccessLevel = mayLogprob && probe?.firstTokenTop && probe.firstTokenTop.size > 0 ? "L1" : "L0";
  return new HostedAdapter(client, level);
}
