// `npm run bench`: runs every benchmark in bench/ (each `*.ts` but this file and `_`-prefixed helpers),
// one at a time so they never compete for the cores, then rewrites bench/RESULTS.md from the sections
// the benchmarks wrote into bench/results/*.md, under a header naming the machine and runtime.
// Options: --only NAME[,NAME] runs a subset (other sections are kept, marked with their date);
// --assemble rewrites RESULTS.md without running anything.
import { spawn } from "node:child_process";
import { readdir, readFile, stat, writeFile, mkdir } from "node:fs/promises";
import { cpus, freemem, platform, release, totalmem } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const benchDir = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const resultsDir = join(benchDir, "results");
const self = basename(fileURLToPath(import.meta.url));

interface Outcome {
  name: string;
  code: number | null;
  seconds: number;
}

async function benchmarks(): Promise<string[]> {
  return (await readdir(benchDir))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && f !== self && !f.startsWith("_"))
    .map((f) => basename(f, ".ts"))
    .sort();
}

function runOne(name: string): Promise<Outcome> {
  const started = performance.now();
  process.stderr.write(`bench: ${name} …\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(benchDir, `${name}.ts`)], {
      stdio: "inherit",
      cwd: repoRoot, // benchmarks write bench/results/<name>.md relative to the repository root
      env: { ...process.env, CALIBKIT_BENCH_RESULTS: resultsDir },
    });
    child.on("exit", (code) => {
      const seconds = (performance.now() - started) / 1000;
      process.stderr.write(`bench: ${name} ${code === 0 ? "done" : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s\n`);
      resolve({ name, code, seconds });
    });
    child.on("error", () => resolve({ name, code: null, seconds: (performance.now() - started) / 1000 }));
  });
}

function machine(): string {
  const cpu = cpus();
  return [
    `- machine: ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} logical cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory (${(freemem() / 2 ** 30).toFixed(1)} GiB free at the start)`,
    `- runtime: Node ${process.version} on ${platform()} ${release()}`,
  ].join("\n");
}

async function assemble(ran: Outcome[], startedAt: Date): Promise<string> {
  await mkdir(resultsDir, { recursive: true });
  const present = new Set(await benchmarks());
  const files = (await readdir(resultsDir)).filter((f) => f.endsWith(".md")).sort();
  const sections: string[] = [];
  for (const f of files) {
    // `NAME@WHERE.md`: another run of bench NAME, kept beside its own section (another machine, say).
    const name = basename(f, ".md").split("@")[0]!;
    const text = (await readFile(join(resultsDir, f), "utf8")).trim();
    const written = (await stat(join(resultsDir, f))).mtime;
    const notes: string[] = [];
    if (!present.has(name)) notes.push(`no bench/${name}.ts any more; kept from ${written.toISOString()}`);
    else if (written < startedAt) notes.push(`from an earlier run (${written.toISOString()})`);
    const failed = ran.find((o) => o.name === name && o.code !== 0);
    if (failed) notes.push(`the latest run FAILED (exit ${failed.code}); these figures are older`);
    sections.push(notes.length ? `${text}\n\n> ${notes.join("; ")}` : text);
  }
  for (const o of ran) {
    if (!files.includes(`${o.name}.md`)) {
      sections.push(`## ${o.name}\n\n${o.code === 0 ? "Ran, but wrote no bench/results/" + o.name + ".md." : `FAILED (exit ${o.code}); no results.`}`);
    }
  }
  const ranLine = ran.length
    ? `- this run: ${ran.map((o) => `${o.name} ${o.code === 0 ? "ok" : "FAILED"} (${o.seconds.toFixed(1)} s)`).join(", ")}`
    : "- assembled without running (--assemble)";
  return [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run-all.ts) from the sections in bench/results/; do not edit by hand.",
    "Each figure is measured in the same run as its baseline; ratios compare like with like.",
    "",
    `- date: ${startedAt.toISOString()}`,
    machine(),
    ranLine,
    "",
    sections.join("\n\n"),
    "",
  ].join("\n");
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { only: { type: "string" }, assemble: { type: "boolean", default: false }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write("usage: npm run bench [-- --only NAME[,NAME]] [-- --assemble]\n");
    return 0;
  }
  const all = await benchmarks();
  const wanted = values.only ? values.only.split(",").map((s) => s.trim()) : all;
  const unknown = wanted.filter((n) => !all.includes(n));
  if (unknown.length) {
    process.stderr.write(`bench: no benchmark named ${unknown.join(", ")} (have: ${all.join(", ") || "none"})\n`);
    return 2;
  }
  const startedAt = new Date();
  const ran: Outcome[] = [];
  if (!values.assemble) for (const name of wanted) ran.push(await runOne(name));
  const out = join(benchDir, "RESULTS.md");
  await writeFile(out, await assemble(ran, startedAt));
  process.stderr.write(`bench: wrote ${out}\n`);
  return ran.every((o) => o.code === 0) ? 0 : 1;
}

process.exitCode = await main();
