// calibkit's public face. Each concern lives in its own folder; this file re-exports the names a library
// user reaches for first. Every folder also has a subpath export of its own (`calibkit/adapters`,
// `calibkit/service`, `calibkit/mail`, `calibkit/conformal`, `calibkit/run`, ...).
export * from "./api/index.js";
export * from "./client/index.js";
export {
  AccessLevelError, AdapterError, createLlamaCppAdapter, createOnnxAdapter, createOpenAICompatibleAdapter,
  defaultModelsDir, openAdapter, resolveAccessLevel, resolveModelPath, startModelServer, type ModelAdapter,
} from "./adapters/index.js";
export * from "./evidence/index.js";
export {
  QueryTypeMismatchError, RunAbortedError, runCalibration, RunInputError, RunOptionError, runSuite, SuiteError,
  type CalibrationOptions, type CalibrationResult, type ProgressEvent, type ReportFiles, type RunHooks, type SuiteDefinition,
  type SuiteOptions, type SuiteResult,
} from "./run/index.js";
