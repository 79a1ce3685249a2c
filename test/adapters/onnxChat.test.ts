// The ONNX path's chat rendering: transformers.js's own apply_chat_template on tiny-gpt2 with a template
// file (tiny-gpt2 has none of its own), the generation prompt added and the date pinned.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOnnxAdapter, defaultModelsDir, type ModelAdapter } from "../../src/adapters/index.js";

const TEMPLATES = join(import.meta.dirname, "../../fixtures/chat-templates");
let adapter: ModelAdapter;

beforeAll(async () => {
  adapter = await createOnnxAdapter({ modelDir: join(defaultModelsDir(), "tiny-gpt2") });
});
afterAll(async () => {
  await adapter.dispose();
});

describe("ONNX chat rendering (transformers.js apply_chat_template)", () => {
  it("tiny-gpt2 has no chat template of its own, and says so", async () => {
    expect(adapter.hasChatTemplate).toBe(false);
    await expect(adapter.renderChat([{ role: "user", content: "Hi" }], { chatTemplate: "auto" })).rejects.toThrow(/no chat template/);
  });

  it("renders a ChatML file with the generation prompt, exactly", async () => {
    const r = await adapter.renderChat(
      [{ role: "system", content: "S" }, { role: "user", content: "Q1" }, { role: "assistant", content: "A" }, { role: "user", content: "Q2" }],
      { chatTemplate: { file: join(TEMPLATES, "chatml.jinja") } },
    );
    expect(r.text).toBe("<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nQ1<|im_end|>\n<|im_start|>assistant\nA<|im_end|>\n<|im_start|>user\nQ2<|im_end|>\n<|im_start|>assistant\n");
    expect(r.wrapperName).toBe("apply_chat_template");
  });

  it("pins the date of a date-printing template, which the source (and so the hash) carries", async () => {
    const file = join(TEMPLATES, "today.jinja");
    const r = await adapter.renderChat([{ role: "user", content: "Hi" }], { chatTemplate: { file }, pinnedDate: new Date(Date.UTC(2025, 2, 14)) });
    expect(r.text).toContain("Today is Friday 14 March 2025.");
    expect(readFileSync(file, "utf8")).toContain("strftime_now");
    const other = await adapter.renderChat([{ role: "user", content: "Hi" }], { chatTemplate: { file } });
    expect(other.text).toContain("Today is Friday 26 July 2024.");
    expect(other.templateSource).not.toBe(r.templateSource);
  });

  it("scores continuations after a rendered prompt", async () => {
    const r = await adapter.renderChat([{ role: "user", content: "Pick A or B" }], { chatTemplate: { file: join(TEMPLATES, "chatml.jinja") } });
    const [row] = await adapter.scoreContinuations([{ prefix: r.text, continuations: ["A", "B"], rendered: true }]);
    expect(row!.every((x) => Number.isFinite(x) && x < 0)).toBe(true);
  });
});
