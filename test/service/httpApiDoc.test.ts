// docs/http-api.md runs: every `sh` block of the page is run by bash against a live `calibkit serve` (curl as
// written, $CALIBKIT its address), and what the last curl of the block answered must be the `http` block that
// follows it — status and body, values that change from run to run compared by shape. Each answer is also held
// against the OpenAPI document. CALIBKIT_UPDATE_DOCS=1 writes the answers of this run into the page instead.
// The page's model backend is a real `calibkit serve-model` (stories260K) on a free port; the service runs with
// the page's own svc.json, its base_url pointed there.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openapiMismatch } from "../setup/openapiResponses.js";
import { REPO, spawnCalibkit, startServer, type Spawned } from "./helpers.js";

const PAGE = "docs/http-api.md";
const MODEL = join(process.env.CALIBKIT_MODELS_DIR ?? join(REPO, "../shared/models"), "stories260K.gguf");
const CONFIG = /```json svc\.json\n([\s\S]*?)\n```/;
const STEP = /```sh\n([\s\S]*?)\n```\n\n```http\n(HTTP \d+)\n([\s\S]*?)\n```/g;
let model: Spawned;
let server: Spawned & { data: string };
let curlHome = "";
let PAGE_MODEL_URL = "";

beforeAll(async () => {
  model = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1"], 60_000);
  const config = JSON.parse(CONFIG.exec(await readFile(PAGE, "utf8"))![1]!) as { backends: { base_url: string }[] };
  PAGE_MODEL_URL = config.backends[0]!.base_url;
  for (const b of config.backends) b.base_url = model.url;
  server = await startServer({ config });
  // curl reads $CURL_HOME/.curlrc: every call of the page also prints its status on stderr, without the page
  // saying so (stdout stays the body, so the page may pipe a body into jq).
  curlHome = await mkdtemp(join(tmpdir(), "calibkit-curl-"));
  await writeFile(join(curlHome, ".curlrc"), '-w "%{stderr}HTTP %{http_code}\\n"\n');
}, 90_000);
afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await model?.stop();
});

/** Values that differ from run to run, replaced by what they are. */
function shape(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => shape(v, key));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v, k)]));
  if (typeof value !== "string") return value;
  if (key === "request_id") return "<request id>";
  // A backend's fingerprint hashes what its probe saw, the server's address (here a free port) included.
  if (key === "fingerprint") return "<fingerprint>";
  if (key === "id" || /^(mon|job|hq)_/.test(value)) return "<id>";
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value)) return "<date>";
  return value;
}

describe("docs/http-api.md", () => {
  it("is what a live calibkit serve answers, step by step", async () => {
    const page = await readFile(PAGE, "utf8");
    const steps = [...page.matchAll(STEP)];
    expect(steps.length).toBeGreaterThanOrEqual(19);
    let updated = page;
    for (const [whole, command, status, body] of steps) {
      const run = spawnSync("bash", ["-c", command!], { encoding: "utf8", timeout: 60_000, env: { ...process.env, CALIBKIT: server.url, CURL_HOME: curlHome } });
      expect(run.status, `${command}\n${run.stderr}`).toBe(0);
      // The block's visible output is the last curl's body; its status is the last line the .curlrc adds on stderr.
      const status = run.stderr.trim().split("\n").at(-1)!;
      // The model server's free port is shown as the page's svc.json names it.
      const got = { status, body: JSON.parse(run.stdout.replaceAll(model.url, PAGE_MODEL_URL)) as unknown };
      const lastCurl = /^curl -s(?: -X (\w+))? (\$CALIBKIT\S*)/gm;
      const calls = [...command!.matchAll(lastCurl)];
      const [, method = "GET", target] = calls.at(-1)!;
      const mismatch = openapiMismatch("evaluation", method, new URL(target!.replace("$CALIBKIT", server.url)), Number(got.status.slice(5)), got.body);
      expect(mismatch, command).toBeUndefined();
      if (process.env.CALIBKIT_UPDATE_DOCS) {
        updated = updated.replace(whole!, `\`\`\`sh\n${command}\n\`\`\`\n\n\`\`\`http\n${got.status}\n${JSON.stringify(got.body, null, 2)}\n\`\`\``);
        continue;
      }
      expect(got.status, command).toBe(status);
      expect(shape(got.body), command).toEqual(shape(JSON.parse(body!)));
    }
    if (process.env.CALIBKIT_UPDATE_DOCS) await writeFile(PAGE, updated);
  });
});
