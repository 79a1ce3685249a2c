// One entry point from a path or URL to the right adapter: a .gguf file → llama.cpp, a folder with onnx/
// → transformers.js, an http(s) URL → an OpenAI-compatible server.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ModelNotFoundError } from "./errors.js";
import { createLlamaCppAdapter, type LlamaCppAdapterOptions } from "./llamaCppAdapter.js";
import { resolveModelPath } from "./modelsDir.js";
import { createOnnxAdapter } from "./onnxAdapter.js";
import { createOpenAICompatibleAdapter, type OpenAICompatibleAdapterOptions } from "./openAICompatibleAdapter.js";
import type { ModelAdapter } from "./types.js";

export interface OpenAdapterOptions {
  /** For llama.cpp models. */
  llama?: Omit<LlamaCppAdapterOptions, "modelPath">;
  /** For servers. */
  server?: Omit<OpenAICompatibleAdapterOptions, "baseUrl">;
}

export async function openAdapter(pathOrUrl: string, options: OpenAdapterOptions = {}): Promise<ModelAdapter> {
  if (/^https?:\/\//i.test(pathOrUrl)) return createOpenAICompatibleAdapter({ baseUrl: pathOrUrl, ...options.server });
  const path = resolveModelPath(pathOrUrl);
  if (!existsSync(path)) throw new ModelNotFoundError(`No model at ${path}`);
  if (statSync(path).isDirectory()) {
    if (existsSync(join(path, "onnx", "model.onnx"))) return createOnnxAdapter({ modelDir: path });
    throw new ModelNotFoundError(`${path} is a folder without onnx/model.onnx`);
  }
  if (path.toLowerCase().endsWith(".gguf")) return createLlamaCppAdapter({ modelPath: path, ...options.llama });
  throw new ModelNotFoundError(`${path} is neither a .gguf file, an ONNX model folder nor an http(s) URL`);
}
