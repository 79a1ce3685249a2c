// calibkit's public face. Each concern lives in its own folder; this file re-exports their public names.
export * from "./api/index.js";
export * from "./client/index.js";
