// The `calibkit conformal` rows of bench/conformal.ts: the command end to end on 100,000-record JSON Lines
// files (parse both, calibrate, predict, write), in process and as a process, each also as a ratio to
// JSON.parse of every line of both files measured in the same run (what any JavaScript reader pays at least).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { run as conformalCommand } from "../src/cli/commands/conformal.js";

interface Pool { data: Float64Array; labels: Int32Array }
interface Options {
  dir: string;
  n: number;
  width: number;
  cal: Pool;
  test: Pool;
  /** The bench's timer: median time of f in ns after a warm-up. */
  median(f: () => void, repeats?: number): number;
}

/** Writes the two files into `dir`, times the command, and returns the section's lines. */
export async function commandSection({ dir, n: N, width: K, cal, test, median }: Options): Promise<string[]> {
  let sink = 0;
  const names = Array.from({ length: K }, (_, j) => `option_${j}`);
  const jsonl = (d: Float64Array, labels?: Int32Array) => {
    const lines: string[] = [];
    for (let i = 0; i < N; i++) {
      const p = names.map((n, j) => `"${n}":${d[i * K + j]}`).join(",");
      lines.push(`{"probabilities":{${p}}${labels ? `,"label":"${names[labels[i]!]}"` : ""}}`);
    }
    return lines.join("\n") + "\n";
  };
  writeFileSync(join(dir, "cal.jsonl"), jsonl(cal.data, cal.labels));
  writeFileSync(join(dir, "test.jsonl"), jsonl(test.data));
  const command: { name: string; total: number }[] = [];
  const jsonParseBoth = median(() => {
    for (const f of ["cal.jsonl", "test.jsonl"]) {
      const text = readFileSync(join(dir, f), "utf8");
      let start = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
        sink += (JSON.parse(text.slice(start, nl)) as { probabilities: Record<string, number> }).probabilities.option_0!;
        start = nl + 1;
      }
    }
  }, 3) / N;
  // The command loads the code of a type on its first run (awaited here); later runs go through synchronously.
  const write0 = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    await conformalCommand(["set", "--calibration", join(dir, "cal.jsonl"), "--test", join(dir, "test.jsonl")]);
  } finally {
    process.stdout.write = write0;
  }
  for (const args of [["--method", "LAC"], ["--method", "APS"], ["--method", "APS", "--scores"], ["--method", "APS", "--beliefs"]]) {
    let bytes = 0;
    const write = process.stdout.write.bind(process.stdout);
    const total = median(() => {
      // Encoded as a write to a file would (a string output is flattened and encoded there, not here).
      process.stdout.write = ((c: string | Buffer) => ((bytes += typeof c === "string" ? Buffer.byteLength(c) : c.length), true)) as typeof process.stdout.write;
      try {
        void conformalCommand(["set", ...args, "--calibration", join(dir, "cal.jsonl"), "--test", join(dir, "test.jsonl")]);
      } finally {
        process.stdout.write = write;
      }
    }, 3) / N;
    command.push({ name: `calibkit conformal set ${args.join(" ")} (${(bytes / 4 / 1e6).toFixed(0)} MB out per run)`, total });
  }
  // And as a process (node start, TypeScript loaded through tsx when there is no build, output to /dev/null):
  // wall time, and the child's CPU time (user + system, from the shell's `times`; the wall clock on a shared
  // machine counts the time other processes held the cores).
  const wall: number[] = [];
  const cpu: number[] = [];
  const secs = (m: string, s: string) => (Number(m) * 60 + Number(s)) * 1e9;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now() * 1e6;
    const script = `"$0" bin/calibkit.js conformal set --calibration "$1" --test "$2" > /dev/null || exit 1; times >&2`;
    const p = spawnSync("bash", ["-c", script, process.execPath, join(dir, "cal.jsonl"), join(dir, "test.jsonl")], { encoding: "utf8", env: { ...process.env } });
    wall.push(performance.now() * 1e6 - t0);
    if (p.status !== 0) throw new Error(`calibkit conformal failed: ${p.stderr}`);
    // `times`: the shell's user/system times, then its children's: "0m1.234s 0m0.056s".
    const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(p.stderr.trim());
    if (m) cpu.push(secs(m[1]!, m[2]!) + secs(m[3]!, m[4]!));
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const built = existsSync(new URL("../dist/cli/main.js", import.meta.url));
  const how = `node start included; ${built ? "the built dist/ (npm run build)" : "no build: the TypeScript source through tsx"}; output to /dev/null`;
  if (cpu.length === 3) command.push({ name: `the same LAC run as a process (\`node bin/calibkit.js conformal set …\`; CPU time of the child, ${how})`, total: cpu[1]! / N });
  command.push({ name: `the same, wall time`, total: wall[1]! / N });
  const f1 = (x: number) => x.toFixed(1);
  return [
    `| \`calibkit conformal\` on ${N.toLocaleString("en")}-record JSON Lines files (parse both, calibrate, predict, write sets and p-values; scores only with --scores) | µs per test example | × JSON.parse of both files | goal |`,
    "|---|---:|---:|---:|",
    ...command.map((r) => `| ${r.name} | ${(r.total / 1000).toFixed(2)} | ${f1(r.total / jsonParseBoth)} | ≤ 10${r.total <= 10_000 ? " ✓" : " ✗"} |`),
    "",
    `Baseline, same run: \`JSON.parse\` of every line of both files (read whole, split at newlines, nothing kept), **${(jsonParseBoth / 1000).toFixed(2)} µs per test example**${Number.isNaN(sink) ? " (a NaN was read)" : ""}.`,
    "",
  ];
}
