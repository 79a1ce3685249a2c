// Public face of the adapters: local and remote model backends behind one interface.
export type {
  AdapterProvider, CallOptions, ChatRenderOptions, GeneratedSequence, GenerateOptions, GenerationResult, ModelAdapter,
  RenderedChat, SampleOptions, ScoreItem,
} from "./types.js";
export { AccessLevelError, AdapterDisposedError, AdapterError, ChatTemplateError, ModelNotFoundError } from "./errors.js";
export { requireLevel, resolveAccessLevel } from "./accessLevel.js";
export { defaultModelsDir, resolveModelPath } from "./modelsDir.js";
export { computeFingerprint, hashFile } from "./fingerprint.js";
export { chooseThreads } from "./threads.js";
export { logSumExp } from "./logMath.js";
export { seededRng } from "./seededSampler.js";
export { createLlamaCppAdapter, type LlamaCppAdapterOptions, type LlamaCppModelAdapter } from "./llamaCppAdapter.js";
export type { CompletionOptions, CompletionResult } from "./llamaCompletion.js";
export { createOnnxAdapter, type OnnxAdapterOptions } from "./onnxAdapter.js";
export {
  AdapterStatusError, createOpenAICompatibleAdapter, type OpenAICompatibleAdapterOptions,
} from "./openAICompatibleAdapter.js";
export { openAdapter, type OpenAdapterOptions } from "./openAdapter.js";
export {
  modelChatTemplate, readChatTemplateFile, renderChatPrompt,
  type ChatMessage, type ChatRole, type ChatTemplateSetting, type RenderChatOptions, type RenderedChatPrompt,
} from "./chatTemplate.js";
export { DEFAULT_PINNED_DATE, strftimeUtc } from "./chatDate.js";
export {
  isLoopbackHost, ServeModelError, startModelServer, type ChatRenderer, type ChatTurn, type ModelServer, type ModelServerOptions,
} from "./serveModel/index.js";
export { renderJinjaChat } from "./jinjaChat.js";
export { countingAdapter, type CountingAdapter } from "./counting.js";
export { openHostedAdapter, HostedAdapter, HOSTED_PROVIDERS, type AwsCredential, type HostedBackendOptions } from "./providers/index.js";
