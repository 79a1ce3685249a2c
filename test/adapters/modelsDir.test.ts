// Where `--model` points: a name inside the models folder, a path (relative ones included) where it is.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultModelsDir, resolveModelPath } from "../../src/adapters/modelsDir.js";

describe("resolveModelPath", () => {
  it("takes a relative path that exists from the working directory as that file", () => {
    expect(resolveModelPath("test/adapters/modelsDir.test.ts")).toBe(resolve("test/adapters/modelsDir.test.ts"));
    expect(resolveModelPath("package.json")).toBe(resolve("package.json"));
  });
  it("looks a name up in the models folder, and passes absolute paths, ./paths and URLs through", () => {
    expect(resolveModelPath("stories260K.gguf")).toBe(resolve(defaultModelsDir(), "stories260K.gguf"));
    expect(resolveModelPath("no/such/model.gguf")).toBe(resolve(defaultModelsDir(), "no/such/model.gguf"));
    expect(resolveModelPath("/abs/x.gguf")).toBe("/abs/x.gguf");
    expect(resolveModelPath("./x.gguf")).toBe(resolve("x.gguf"));
    expect(resolveModelPath("http://host/m.gguf")).toBe("http://host/m.gguf");
  });
});
