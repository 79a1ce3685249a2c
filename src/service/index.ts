// Public face of the self-hosted evaluation service (docs/service.md).
export { startService, KeysRequiredError, type StartServiceOptions, type RunningService } from "./service.js";
export { configSchema, parseConfig, loadConfigFile, type ServiceConfig, type ServiceConfigInput, type BackendConfig } from "./config.js";
export { formatKeyHash, isLoopbackHost } from "./auth.js";
export { BASE_PATH } from "./http/server.js";
export { stageGeneration, stageJudgement, matchesReference } from "./backends/stageCalls.js";
export { judgePrompt } from "./engine/judgeStages.js";
export { stagePrompt } from "./engine/routeQuery.js";
