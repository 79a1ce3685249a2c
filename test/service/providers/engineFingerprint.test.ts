// vllm/sglang engine settings the server does not report (quantization, engine_version, logprobs_mode,
// deterministic) go into the backend's fingerprint, shown by GET /backends: the same server configured with
// other settings is another backend to a calibration profile.
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO, spawnCalibkit, startServer, type Spawned } from "../helpers.js";

const MODEL = join(process.env.CALIBKIT_MODELS_DIR ?? join(REPO, "../shared/models"), "stories260K.gguf");
let model: Spawned;
let server: Spawned;
beforeAll(async () => {
  model = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1"], 60_000);
  server = await startServer({
    config: {
      backends: [
        { name: "plain", provider: "vllm", base_url: model.url },
        { name: "plain-again", provider: "sglang", base_url: model.url },
        { name: "awq", provider: "vllm", base_url: model.url, quantization: "awq", engine_version: "0.11.0" },
        { name: "det", provider: "vllm", base_url: model.url, quantization: "awq", engine_version: "0.11.0", deterministic: true, logprobs_mode: "processed_logprobs" },
      ],
    },
  });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await model?.stop();
});

it("records the engine settings in each backend's fingerprint", async () => {
  const { backends } = (await (await fetch(`${server.url}/api/v1/backends`)).json()) as { backends: { name: string; fingerprint: string }[] };
  const fp = Object.fromEntries(backends.map((b) => [b.name, b.fingerprint]));
  for (const f of Object.values(fp)) expect(f).toMatch(/^sha256:[0-9a-f]{64}$/);
  // Same server, no settings: the same fingerprint whichever engine name; each setting changes it.
  expect(fp["plain-again"]).toBe(fp.plain);
  expect(new Set([fp.plain, fp.awq, fp.det]).size).toBe(3);
}, 30_000);
