// Public face of `calibkit serve-model`'s server: a local GGUF model as an OpenAI-compatible endpoint.
export { isLoopbackHost, startModelServer, type ModelServer, type ModelServerOptions } from "./server.js";
export type { ChatRenderer, ChatTurn } from "./chat.js";
export { ServeModelError } from "./errors.js";
