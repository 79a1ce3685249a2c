// The command line a new user meets first: --help lists every command without loading them (it loaded the whole
// library: seconds of CPU on a fresh clone), --version answers, npm's scripts all name a real command, and npm
// reads no project config it does not know (it warned about onnxruntime-node-install on every command).
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const run = (args: string[], env: Record<string, string> = {}, node: string[] = []) =>
  spawnSync(process.execPath, [...node, "bin/calibkit.js", ...args], { encoding: "utf8", env: { ...process.env, CALIBKIT_FROM_SOURCE: "1", ...env } });

describe("the command line", () => {
  it("lists every command with its summary without importing any of them", async () => {
    const record = join(await mkdtemp(join(tmpdir(), "calibkit-imports-")), "imports.txt");
    const help = run(["--help"], { CALIBKIT_RECORD_IMPORTS: record }, ["--import", "./test/cli/recordImports.mjs"]);
    expect(help.status).toBe(0);
    const loaded = (await readFile(record, "utf8")).split("\n");
    expect(loaded.filter((url) => url.includes("/src/cli/main.ts"))).not.toEqual([]);
    expect(loaded.filter((url) => url.includes("/cli/commands/"))).toEqual([]);
    const names = (await readdir("src/cli/commands")).map((f) => f.replace(/\.ts$/, "")).sort();
    for (const name of names) {
      const { summary } = (await import(`../../src/cli/commands/${name}.ts`)) as { summary: string };
      expect(help.stdout).toContain(`  ${name.padEnd(14)} ${summary}\n`);
    }
  });

  it("names the whole cache default, $XDG_CACHE_HOME included, in every help that takes --cache", () => {
    for (const command of ["run", "bench", "cache"]) {
      const help = run([command, "--help"]).stdout;
      expect(help, command).toMatch(/--cache DIR/);
      expect(help.replace(/\s+/g, " "), command).toMatch(/\$CALIBKIT_CACHE, else \$XDG_CACHE_HOME\/calibkit, else ~\/\.cache\/calibkit/);
    }
  });

  it("prints its version", async () => {
    const pkg = JSON.parse(await readFile("package.json", "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const r = run([flag]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`calibkit ${pkg.version}\n`);
    }
  });

  it("has npm scripts that name real commands", async () => {
    const pkg = JSON.parse(await readFile("package.json", "utf8")) as { scripts: Record<string, string> };
    const names = (await readdir("src/cli/commands")).map((f) => f.replace(/\.ts$/, ""));
    for (const [script, line] of Object.entries(pkg.scripts)) {
      const command = /node bin\/calibkit\.js (\S+)/.exec(line)?.[1];
      if (command !== undefined) expect(names, `npm run ${script}`).toContain(command);
    }
  });

  it("gives npm no project config it does not know", async () => {
    // npm passes its config on to scripts as npm_config_* variables (vitest under `npm test` has them): left out.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_config_")));
    const r = spawnSync("npm", ["config", "list"], { encoding: "utf8", env });
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/Unknown (project|env|user|global) config/);
  });
});

describe("an option whose value was forgotten", () => {
  it("is named with what followed it, by run, conformal and every other command", async () => {
    const { parseRunOptions } = await import("../../src/cli/run/options.js");
    expect(() => parseRunOptions(["--alpha", "--out", "X"])).toThrow(/--alpha needs a value, but is followed by the option --out; write --alpha VALUE/);
    const { parseOptions } = await import("../../src/cli/conformal/options.js");
    expect(() => parseOptions("set", ["--alpha", "--calibration", "c.jsonl"])).toThrow(/--alpha needs a value, but is followed by the option --calibration/);
    const serve = run(["serve", "--port", "--data", "x"]);
    expect(serve.status).toBe(2);
    expect(serve.stderr).toMatch(/^calibkit serve: --port needs a value, but is followed by the option --data; write --port VALUE \(or --port=-VALUE/);
    expect(serve.stderr).not.toMatch(/ambiguous/);
  });
});
