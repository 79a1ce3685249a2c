// Opens the adapter of one configured backend, by its provider: self-hosted OpenAI-compatible servers (vllm,
// sglang) through the completions adapter, hosted providers through their own SDK adapters (docs/service.md "Providers").
import type { ModelAdapter } from "../../adapters/index.js";
import type { BackendConfig, ConnectionCredential } from "../config.js";

export async function openBackendAdapter(config: BackendConfig, credential: ConnectionCredential, timeoutMs: number): Promise<ModelAdapter> {
  const { apiKey, aws } = credential;
  // Loaded on first use: the adapters pull in the local model engines and the provider SDKs, which a service
  // without configured backends never needs (start-up stays fast).
  const { createOpenAICompatibleAdapter, openHostedAdapter } = await import("../../adapters/index.js");
  if (config.provider !== "vllm" && config.provider !== "sglang") return openHostedAdapter({ ...config, apiKey, aws, timeoutMs });
  // Engine settings the server does not report change outputs: they go into the backend's fingerprint.
  const settings = Object.fromEntries(
    (["quantization", "engine_version", "logprobs_mode", "deterministic"] as const).flatMap((k) => (config[k] === undefined ? [] : [[k, config[k]!]])),
  );
  return createOpenAICompatibleAdapter({ baseUrl: config.base_url, settings, ...(config.model ? { model: config.model } : {}), ...(apiKey ? { apiKey } : {}), timeoutMs });
}
