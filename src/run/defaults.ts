// The model and dataset a run falls back on when none is given: the bundled story-cloze fixture, and the
// tiny test model in the models folder.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
// The models-folder rule alone (not the adapters' index, which loads both inference engines): --help stays instant.
import { defaultModelsDir } from "../adapters/modelsDir.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const DEFAULT_DATASET = resolve(repoRoot, "fixtures", "story-cloze.jsonl");
export const DEFAULT_MODEL_FILE = "stories260K.gguf";

/** $CALIBKIT_MODEL, else stories260K.gguf in the models folder ($CALIBKIT_MODELS_DIR or ../shared/models). */
export function defaultModel(): string {
  return process.env.CALIBKIT_MODEL ? resolve(process.env.CALIBKIT_MODEL) : resolve(defaultModelsDir(), DEFAULT_MODEL_FILE);
}

