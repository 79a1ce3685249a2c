// A bench suite over several OpenAI-compatible servers: two real `calibkit serve-model` processes (stories260K)
// on loopback run side by side, each with its own bound on requests in flight; killing one mid-suite fails only
// its cells; a rerun (the killed server started again on its port) computes only what is missing.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runSuite, suiteOf, type ProgressEvent, type SuiteDefinition } from "../../src/run/index.js";
import type { BenchSummary } from "../../src/report/index.js";
import { runCalibkit } from "../cliProcess.js";
import { REPO, spawnCalibkit, type Spawned } from "../service/helpers.js";

const MODEL = `${REPO}../shared/models/stories260K.gguf`;
const DATASET = `${REPO}fixtures/story-cloze.jsonl`;
const MMLU = `${REPO}fixtures/story-cloze-mmlu.csv`;
const servers: Spawned[] = [];

const serveModel = async (port = 0): Promise<Spawned> => {
  const s = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1", "--parallel", "4", "--port", String(port)], 90_000);
  servers.push(s);
  return s;
};

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const suiteOver = (a: string, b: string, limit: number): SuiteDefinition => ({
  models: [{ url: a, concurrency: 3 }, { url: b, concurrency: 1 }],
  tasks: [{ name: "cloze-a", dataset: DATASET, limit }, { name: "cloze-b", dataset: MMLU, limit: limit / 2, format: "letters" }],
  methods: ["LAC"], alphas: [0.2], repeats: 2,
});

/** Polls a server's /health while `run` goes on: the most generation requests it held at once. */
async function mostInFlight<T>(url: string, run: Promise<T>): Promise<[T, number]> {
  let most = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      try {
        const h = (await (await fetch(`${url}/health`)).json()) as { in_flight: number };
        most = Math.max(most, h.in_flight);
      } catch {
        return; // the server is gone
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  try {
    return [await run, most];
  } finally {
    done = true;
    await poll;
  }
}

describe.skipIf(!existsSync(MODEL))("bench over several OpenAI-compatible servers", () => {
  it("reads `models` entries with a per-server concurrency, and refuses bad ones naming the field", () => {
    const s = suiteOf({ models: ["http://127.0.0.1:9/v1", { url: "http://10.0.0.5:8000", concurrency: 16 }], tasks: [{ name: "t", dataset: DATASET }], methods: ["LAC"], alphas: [0.1] });
    expect(s.concurrency).toEqual({ "http://127.0.0.1:9/v1": 8, "http://10.0.0.5:8000": 16 });
    const bad = (models: unknown[]) => {
      try {
        suiteOf({ models, tasks: [{ name: "t", dataset: DATASET }], methods: ["LAC"], alphas: [0.1] } as SuiteDefinition);
      } catch (err) {
        return (err as Error).message;
      }
      return "accepted";
    };
    expect(bad([{ url: "http://a:1", concurrency: 0 }])).toMatch(/models\[0\]\.concurrency: must be an integer from 1 to 1024, got 0/);
    expect(bad([{ url: "file.gguf" }])).toMatch(/models\[0\]\.url: must be an http\(s\) URL/);
    expect(bad([{ url: "http://a:1", threads: 2 }])).toMatch(/models\[0\]\.threads: unknown field/);
    expect(bad(["http://a:1", { url: "http://a:1" }])).toMatch(/models\[1\]: http:\/\/a:1 is listed twice/);
  });

  it("`calibkit bench` writes what it has and exits 1 naming each cell of a server that is not there", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));
    const dir = await mkdtemp(join(tmpdir(), "calibkit-bench-dead-"));
    await writeFile(join(dir, "suite.yaml"), `models:\n  - url: ${url}\n    concurrency: 2\ntasks:\n  - name: t\n    dataset: ${DATASET}\n    limit: 8\nmethods: [LAC]\nalphas: [0.2]\n`);
    const r = await runCalibkit(["bench", join(dir, "suite.yaml"), "--no-cache", "--quiet", "--out", join(dir, "out")]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`calibkit bench: failed: t on ${url}: could not open 127.0.0.1:`);
    expect(r.stderr).toContain("ECONNREFUSED");
    expect(r.stderr).toContain("1 model × task cell(s) failed; run the same command again to compute only what is missing");
    const written = JSON.parse(await readFile(join(dir, "out", "summary.json"), "utf8")) as BenchSummary;
    expect([written.rows.length, written.failures!.length]).toEqual([0, 1]);
  });

  it("runs two servers at once within their bounds; a killed one fails its own cells; the rerun computes only what is missing", async () => {
    const [a, b] = await Promise.all([serveModel(), serveModel()]);
    const cache = await mkdtemp(join(tmpdir(), "calibkit-bench-servers-"));
    const limit = 32;
    // First run: both servers to the end, side by side.
    const log: string[] = [];
    const [[first, mostA], mostB] = await mostInFlight(b.url, mostInFlight(a.url, runSuite({
      suite: suiteOver(a.url, b.url, limit), cache: join(cache, "full"), out: join(cache, "out-full"), onLog: (l) => log.push(l),
    })));
    expect(first.summary.failures).toEqual([]);
    expect(first.summary.rows).toHaveLength(2 * 2);
    // Each server's busy time, as the log says it: the two lanes overlap.
    const busy = (url: string) => {
      const host = url.replace("http://", "");
      const spans = log.filter((l) => l.startsWith(`evidence ${host} `)).map((l) => /from \+([\d.]+) s to \+([\d.]+) s/.exec(l)!.slice(1).map(Number));
      expect(spans).toHaveLength(2);
      return [Math.min(...spans.map((s) => s[0]!)), Math.max(...spans.map((s) => s[1]!))] as const;
    };
    const [sa, fa] = busy(a.url);
    const [sb, fb] = busy(b.url);
    expect(Math.max(sa, sb), log.join("\n")).toBeLessThan(Math.min(fa, fb));
    // Requests in flight never passed the entry's `concurrency` (3 for a, 1 for b), and a used more than one.
    expect(mostA).toBeLessThanOrEqual(3);
    expect(mostA).toBeGreaterThan(1);
    expect(mostB).toBe(1);
    const written = JSON.parse(await readFile(join(cache, "out-full", "summary.json"), "utf8")) as BenchSummary;
    expect(written.evidence.map((e) => [e.model, e.task, e.computed])).toEqual([
      [a.url, "cloze-a", limit], [a.url, "cloze-b", limit / 2], [b.url, "cloze-a", limit], [b.url, "cloze-b", limit / 2],
    ]);

    // Second suite on a fresh cache: b is killed once it has committed 16 items.
    const port = Number(new URL(b.url).port);
    const hostB = b.url.replace("http://", "");
    let killed = false;
    const onProgress = (e: ProgressEvent) => {
      if (!killed && e.type === "advance" && e.step === `evidence ${hostB}` && e.done >= 16) {
        killed = true;
        void b.stop("SIGKILL");
      }
    };
    const second = await runSuite({ suite: suiteOver(a.url, b.url, limit), cache: join(cache, "kill"), out: join(cache, "out-kill"), onProgress });
    expect(killed).toBe(true);
    const s2 = second.summary;
    // a's cells are complete; b's first task failed with a clear error and its second was not run.
    expect(s2.evidence.map((e) => [e.model, e.task, e.computed])).toEqual([[a.url, "cloze-a", limit], [a.url, "cloze-b", limit / 2]]);
    expect(s2.rows.map((r) => [r.model, r.task])).toEqual([[a.url, "cloze-a"], [a.url, "cloze-b"]]);
    expect(s2.rows.every((r) => r.inBand === r.repeats)).toBe(true);
    expect(s2.failures!.map((f) => [f.model, f.task])).toEqual([[b.url, "cloze-a"], [b.url, "cloze-b"]]);
    expect(s2.failures![0]!.error).toMatch(new RegExp(`^${hostB.replace(/\./g, "\\.")} failed on task cloze-a after \\d+ of ${limit} items \\(those are kept in the evidence cache\\): (POST|GET) ${b.url}/\\S+ failed`));
    expect(s2.failures![1]!.error).toMatch(/^not run: /);
    expect(await readFile(join(cache, "out-kill", "report.html"), "utf8")).toContain('id="bench-failures"');

    // The rerun, b started again on its port: nothing of a is computed again, b computes only what it lacked.
    const b2 = await serveModel(port);
    expect(b2.url).toBe(b.url);
    const third = (await runSuite({ suite: suiteOver(a.url, b.url, limit), cache: join(cache, "kill"), out: join(cache, "out-rerun") })).summary;
    expect(third.failures).toEqual([]);
    const ev = (model: string, task: string) => third.evidence.find((e) => e.model === model && e.task === task)!;
    expect([ev(a.url, "cloze-a").computed, ev(a.url, "cloze-b").computed, ev(a.url, "cloze-a").modelCalls]).toEqual([0, 0, 0]);
    const resumed = ev(b.url, "cloze-a");
    expect(resumed.hits).toBeGreaterThanOrEqual(16);
    expect(resumed.hits + resumed.computed).toBe(limit);
    expect(resumed.computed).toBeGreaterThan(0);
    expect(ev(b.url, "cloze-b").computed).toBe(limit / 2);
    expect(third.rows.map((r) => [r.model, r.task])).toEqual(first.summary.rows.map((r) => [r.model, r.task]));
    expect(third.rows.every((r) => r.inBand === r.repeats)).toBe(true);
  }, 300_000);
});
