// Models are resolved by path at run time, never copied into the repository (shared/models/README.md).
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** `$CALIBKIT_MODELS_DIR`, or `<repo>/../shared/models` beside the checkout. */
export function defaultModelsDir(): string {
  const fromEnv = process.env.CALIBKIT_MODELS_DIR;
  if (fromEnv) return resolve(fromEnv);
  const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
  return resolve(repoRoot, "..", "shared", "models");
}

/** A bare model name resolves inside the models folder; paths and URLs pass through. */
export function resolveModelPath(nameOrPath: string): string {
  if (/^https?:\/\//i.test(nameOrPath)) return nameOrPath;
  if (isAbsolute(nameOrPath) || nameOrPath.startsWith(".")) return resolve(nameOrPath);
  return resolve(defaultModelsDir(), nameOrPath);
}
