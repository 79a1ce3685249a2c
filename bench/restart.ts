// Restart of `calibkit serve` at 1,000,000 examples, repeated from one saved store: the store bench/service.ts
// leaves (profiles of 200,000 and 260,000 examples beside the 1,000,000 one queried), saved once straight after a
// kill -9 that followed the ingestion, and once after the clean stop (SIGTERM) of a process that read it whole.
// Each round starts a new process on a fresh copy of the saved store and times from its spawn until `listening`
// and until the first evaluate on the 1,000,000 profile answers 200 (polled every 10 ms); baseline: a bare
// node:http process started just before.
// Run: npx tsx bench/restart.ts   (BENCH_ENGINES=sqlite,postgres BENCH_ROUNDS=5; prints a table, writes nothing)
//   BENCH_KEEP=1 leaves the PostgreSQL server running and prints BENCH_PG_DIR=…, which a later run reuses with its
//   saved stores (BENCH_SQLITE_DIR=the folder of an earlier SQLite run likewise); BENCH_REPOS=dirA,dirB alternates
//   rounds between calibkit builds in those folders (each with bin/, dist/ and node_modules) on the same stores.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import pg from "pg";
import { startPostgres, type PostgresServer } from "../test/store/postgresServer.js";
import { build, startEcho, startServe, stop, type Started } from "./_processes.js";
import { BACKEND, evaluateBodyFor, ingest, post } from "./_workload.js";

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const ENGINES = env("BENCH_ENGINES", "sqlite,postgres").split(",") as ("sqlite" | "postgres")[];
const ROUNDS = Number(env("BENCH_ROUNDS", "5"));
const PROFILES: [string, number][] = [["bench-10000", 200_000], ["bench-100000", 260_000], ["bench-1000000", 1_000_000]];
const QUERIED = "bench-1000000";
const evaluateBody = evaluateBodyFor(QUERIED);

/** The SQLite file and its WAL (after a kill -9 the last commits are in the WAL only). */
function copyDb(from: string, to: string): void {
  for (const file of ["calibkit.db", "calibkit.db-wal"]) if (existsSync(join(from, file))) copyFileSync(join(from, file), join(to, file));
}

/** BENCH_REPOS=dirA,dirB: alternate between builds of calibkit in those folders (A/B on the same stores). */
const REPOS = (process.env.BENCH_REPOS ?? "").split(",").filter(Boolean);

function startServeAt(repo: string, data: string, configFile: string, store: string | undefined): Promise<Started> {
  const t0 = performance.now();
  const args = ["bin/calibkit.js", "serve", "--port", "0", "--data", data, "--config", configFile, ...(store ? ["--store", store] : [])];
  const env = { ...process.env };
  delete env.CALIBKIT_FROM_SOURCE;
  const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((ok, fail) => {
    createInterface({ input: child.stdout! }).once("line", (line) => ok({ child, url: line.split(" ")[1]!, listenMs: performance.now() - t0, stderrTail: () => "" }));
    child.once("exit", (code) => fail(new Error(`exited ${code}`)));
  });
}

interface Copy {
  data: string;
  store: string | undefined;
  /** Removes the copy once its round is over (a copy is half a gigabyte). */
  drop(): Promise<void>;
}

interface Saved {
  /** A fresh copy of the saved store: its data folder and PostgreSQL URL. */
  copy(round: string): Promise<Copy>;
}

const dropFolder = (folder: string) => () => rm(folder, { recursive: true, force: true });

async function firstEvaluate(start: () => Promise<Started>): Promise<{ service: Started; listen: number; first: number; polls: Record<string, number> }> {
  const t0 = performance.now();
  const service = await start();
  const polls: Record<string, number> = {};
  for (;;) {
    const res = await post(`${service.url}/api/v1/evaluate`, evaluateBody);
    polls[res.status] = (polls[res.status] ?? 0) + 1;
    if (res.status === 200) {
      const n = (JSON.parse(res.text) as { answers: { topic: { guarantee: { n: number } } } }).answers.topic.guarantee.n;
      if (n !== 1_000_000) throw new Error(`n = ${n} after the restart`);
      break;
    }
    if (res.status !== 503) throw new Error(`evaluate answered ${res.status}: ${res.text}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { service, listen: service.listenMs, first: performance.now() - t0, polls };
}

async function prepare(engine: "sqlite" | "postgres", server: () => PostgresServer, config: string): Promise<Record<"SIGKILL" | "SIGTERM", Saved>> {
  const dir = await mkdtemp(join(tmpdir(), `calibkit-restart-${engine}-`));
  const url = engine === "postgres" ? await server().database("grown") : undefined;
  const data = join(dir, "grown");
  let service = await startServe(data, config, url, false);
  for (const [name, size] of PROFILES) {
    await post(`${service.url}/api/v1/calibration-profiles`, JSON.stringify({ name, backend: BACKEND, alpha: 0.1, method: "LAC" }));
    process.stderr.write(`restart: ${engine}: ingesting ${size} into ${name}\n`);
    await ingest(`${service.url}/api/v1`, name, 0, size, 5000, 4);
    // The smaller ones were stopped cleanly since (bench/service.ts restarts after each size).
    if (name !== QUERIED) {
      await stop(service.child, "SIGTERM");
      service = await startServe(data, config, url, false);
    }
  }
  await stop(service.child, "SIGKILL");
  const save = async (label: string): Promise<Saved> => {
    if (engine === "sqlite") {
      const saved = join(dir, label);
      mkdirSync(saved);
      copyDb(data, saved);
      return {
        async copy(round) {
          const to = join(dir, `${label}-${round}`);
          mkdirSync(to);
          copyDb(saved, to);
          return { data: to, store: undefined, drop: dropFolder(to) };
        },
      };
    }
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: url!.replace("/grown?", "/postgres?") });
      await client.connect();
      await client.query(sql);
      await client.end();
    };
    await admin(`CREATE DATABASE "${label}" TEMPLATE "grown"`);
    return {
      async copy(round) {
        const name = `${label}_${round}`;
        await admin(`CREATE DATABASE "${name}" TEMPLATE "${label}"`);
        return { data: join(dir, "unused"), store: url!.replace("/grown?", `/${name}?`), drop: () => admin(`DROP DATABASE "${name}"`) };
      },
    };
  };
  const killed = await save("killed");
  // Read whole once, then stopped cleanly: what a SIGTERM leaves.
  const reread = await firstEvaluate(() => startServe(data, config, url, false));
  await new Promise((r) => setTimeout(r, 3000));
  await stop(reread.service.child, "SIGTERM");
  const stopped = await save("stopped");
  return { SIGKILL: killed, SIGTERM: stopped };
}

/** The saved stores of a kept server. */
function reuse(url: string): Record<"SIGKILL" | "SIGTERM", Saved> {
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url.replace("/grown?", "/postgres?") });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  const saved = (label: string): Saved => ({
    async copy(round) {
      const name = `${label}_${round}_${Date.now()}`;
      await admin(`CREATE DATABASE "${name}" TEMPLATE "${label}"`);
      return { data: "/nonexistent-unused", store: url.replace("/grown?", `/${name}?`), drop: () => admin(`DROP DATABASE "${name}"`) };
    },
  });
  return { SIGKILL: saved("killed"), SIGTERM: saved("stopped") };
}

/** The saved stores of an earlier run's SQLite folder. */
function reuseSqlite(dir: string): Record<"SIGKILL" | "SIGTERM", Saved> {
  const saved = (label: string): Saved => ({
    async copy(round) {
      const to = join(dir, `${label}-${round}-${Date.now()}`);
      mkdirSync(to);
      copyDb(join(dir, label), to);
      return { data: to, store: undefined, drop: dropFolder(to) };
    },
  });
  return { SIGKILL: saved("killed"), SIGTERM: saved("stopped") };
}

build();
let postgres: PostgresServer | undefined;
// BENCH_PG_DIR: a server left running by an earlier run (BENCH_KEEP=1), its saved stores reused.
const kept = process.env.BENCH_PG_DIR;
const server = () => (postgres ??= kept ? attach(kept) : startPostgres());
function attach(dir: string): PostgresServer {
  return { dir, database: async (name) => `postgres://postgres@localhost/${name}?host=${encodeURIComponent(dir)}`, stop() {}, start() {}, destroy() {} };
}
const rows: string[] = [];
try {
  const config = join(await mkdtemp(join(tmpdir(), "calibkit-restart-")), "config.json");
  await writeFile(config, JSON.stringify({ rate_limit: { requests_per_second: 0, burst: 1 } }));
  for (const engine of ENGINES) {
    const keptSqlite = process.env.BENCH_SQLITE_DIR;
    const saved = kept && engine === "postgres" ? reuse(await server().database("grown"))
      : keptSqlite && engine === "sqlite" ? reuseSqlite(keptSqlite) : await prepare(engine, server, config);
    for (let round = 0; round < ROUNDS; round++) {
      for (const signal of ["SIGKILL", "SIGTERM"] as const) {
        const copy = await saved[signal].copy(`${signal}_${round}`.toLowerCase());
        const { data, store } = copy;
        const bare = await startEcho(false);
        await stop(bare.child);
        const repo = REPOS[(round + (signal === "SIGTERM" ? 1 : 0)) % REPOS.length];
        const { service, listen, first, polls } = await firstEvaluate(() => (repo ? startServeAt(repo, data, config, store) : startServe(data, config, store, false)));
        await stop(service.child, "SIGKILL");
        await copy.drop();
        const row = `| ${engine}${repo ? ` ${repo}` : ""} | ${signal} | ${round} | ${listen.toFixed(0)} | **${first.toFixed(0)}** | ${bare.listenMs.toFixed(0)} | ${Object.entries(polls).map(([s, c]) => `${s}×${c}`).join(" ")} | ${loadavg()[0]!.toFixed(2)} |`;
        rows.push(row);
        process.stderr.write(`${row}\n`);
      }
    }
  }
} finally {
  if (process.env.BENCH_KEEP) process.stderr.write(`restart: the server is left running: BENCH_PG_DIR=${postgres?.dir}\n`);
  else postgres?.destroy();
}
console.log("| engine | stopped by | round | listening ms | first evaluate 200 ms | bare process ms | polls | load 1 min |\n|---|---|---|---|---|---|---|---|");
console.log(rows.join("\n"));
