// Models are resolved by path at run time, never copied into the repository (shared/models/README.md).
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** `$CALIBKIT_MODELS_DIR`, or `<repo>/../shared/models` beside the checkout. */
export function defaultModelsDir(): string {
  const fromEnv = process.env.CALIBKIT_MODELS_DIR;
  if (fromEnv) return resolve(fromEnv);
  const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
  return resolve(repoRoot, "..", "shared", "models");
}

/**
 * A model name resolves inside the models folder; paths and URLs pass through. A relative path that exists from
 * the working directory (`shared/models/x.gguf`) is that file, whatever the models folder holds.
 */
export function resolveModelPath(nameOrPath: string): string {
  if (/^https?:\/\//i.test(nameOrPath)) return nameOrPath;
  if (isAbsolute(nameOrPath) || nameOrPath.startsWith(".")) return resolve(nameOrPath);
  const inModels = resolve(defaultModelsDir(), nameOrPath);
  if (existsSync(resolve(nameOrPath)) && (/[\\/]/.test(nameOrPath) || !existsSync(inModels))) return resolve(nameOrPath);
  return inModels;
}
