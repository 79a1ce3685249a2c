// The `calibkit` command: one file per subcommand in ./commands/, found by name so that
// adding a command never touches this dispatcher.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { extname, basename } from "node:path";

export interface CommandModule {
  /** One line for `calibkit --help`. */
  summary: string;
  /** Runs the command with the arguments after its name; resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

const commandsDir = fileURLToPath(new URL("./commands/", import.meta.url));

function commandNames(): string[] {
  const names = readdirSync(commandsDir)
    .filter((f) => (f.endsWith(".ts") && !f.endsWith(".d.ts")) || f.endsWith(".js"))
    .map((f) => basename(f, extname(f)));
  return [...new Set(names)].sort();
}

async function loadCommand(name: string): Promise<CommandModule | undefined> {
  if (!/^[a-z][a-z-]*$/.test(name) || !commandNames().includes(name)) return undefined;
  return (await import(`./commands/${name}.js`)) as CommandModule;
}

/** The file of a command, as this build has it (.ts from source, .js compiled). */
function commandFile(name: string): string | undefined {
  return readdirSync(commandsDir).find((f) => basename(f, extname(f)) === name && !f.endsWith(".d.ts") && (f.endsWith(".ts") || f.endsWith(".js")));
}

/**
 * A command's one-line summary, read from its file's `export const summary = "…";` line: importing every command
 * to list them loaded the whole library (most of a fresh clone's first `npx calibkit --help`). A file that spells
 * it otherwise is imported.
 */
async function summaryOf(name: string): Promise<string> {
  const file = commandFile(name);
  const text = file ? readFileSync(fileURLToPath(new URL(`./commands/${file}`, import.meta.url)), "utf8") : "";
  const literal = /^export const summary = ("(?:[^"\\\n]|\\.)*");\s*$/m.exec(text)?.[1];
  if (literal !== undefined) return JSON.parse(literal) as string;
  return (await loadCommand(name))?.summary ?? "";
}

/** The package's version, from its package.json (two folders up from src/cli and from dist/cli alike). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as { version: string }).version;
}

async function printHelp(): Promise<void> {
  const lines = ["usage: calibkit <command> [options]", "", "commands:"];
  for (const name of commandNames()) lines.push(`  ${name.padEnd(14)} ${await summaryOf(name)}`);
  lines.push("", "Run `calibkit <command> --help` for the options of one command; `calibkit --version` prints the version.");
  process.stdout.write(lines.join("\n") + "\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-V" || name === "version") {
    process.stdout.write(`calibkit ${packageVersion()}\n`);
    return 0;
  }
  if (!name || name === "--help" || name === "-h" || name === "help") {
    await printHelp();
    return name ? 0 : 1;
  }
  const command = await loadCommand(name);
  if (!command) {
    process.stderr.write(`calibkit: unknown command "${name}". Run \`calibkit --help\` for the list.\n`);
    return 2;
  }
  return command.run(rest);
}

const invokedDirectly = process.argv[1] && /calibkit(\.js)?$|main\.(ts|js)$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (err: unknown) => {
      process.stderr.write(`calibkit: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
