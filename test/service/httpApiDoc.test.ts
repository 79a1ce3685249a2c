// docs/http-api.md runs: every `sh` block of the page is run by bash against a live `calibkit serve` (curl as
// written, $CALIBKIT its address), and what the last curl of the block answered must be the `http` block that
// follows it — status and body, values that change from run to run compared by shape. Each answer is also held
// against the OpenAPI document. CALIBKIT_UPDATE_DOCS=1 writes the answers of this run into the page instead.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openapiMismatch } from "../setup/openapiResponses.js";
import { startServer, type Spawned } from "./helpers.js";

const PAGE = "docs/http-api.md";
const STEP = /```sh\n([\s\S]*?)\n```\n\n```http\n(HTTP \d+)\n([\s\S]*?)\n```/g;
let server: Spawned & { data: string };
let curlHome = "";

beforeAll(async () => {
  server = await startServer();
  // curl reads $CURL_HOME/.curlrc: every call of the page also prints its status, without the page saying so.
  curlHome = await mkdtemp(join(tmpdir(), "calibkit-curl-"));
  await writeFile(join(curlHome, ".curlrc"), '-w "\\nHTTP %{http_code}"\n');
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** Values that differ from run to run, replaced by what they are. */
function shape(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => shape(v, key));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v, k)]));
  if (typeof value !== "string") return value;
  if (key === "request_id") return "<request id>";
  if (key === "id" || /^(mon|job|hq)_/.test(value)) return "<id>";
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value)) return "<date>";
  return value;
}

describe("docs/http-api.md", () => {
  it("is what a live calibkit serve answers, step by step", async () => {
    const page = await readFile(PAGE, "utf8");
    const steps = [...page.matchAll(STEP)];
    expect(steps.length).toBeGreaterThanOrEqual(14);
    let updated = page;
    for (const [whole, command, status, body] of steps) {
      const run = spawnSync("bash", ["-c", command!], { encoding: "utf8", env: { ...process.env, CALIBKIT: server.url, CURL_HOME: curlHome } });
      expect(run.status, `${command}\n${run.stderr}`).toBe(0);
      const out = run.stdout.split("\n");
      // The block's visible output: the last curl's body, then the status line the .curlrc adds.
      const got = { status: out.at(-1)!, body: JSON.parse(out.slice(0, -1).join("\n")) as unknown };
      const lastCurl = /curl -s(?: -X (\w+))? (\$CALIBKIT\S*)/g;
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
