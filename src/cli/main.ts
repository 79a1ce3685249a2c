// The `calibkit` command: one file per subcommand in ./commands/, found by name so that
// adding a command never touches this dispatcher.
import { readdirSync } from "node:fs";
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

async function printHelp(): Promise<void> {
  const lines = ["usage: calibkit <command> [options]", "", "commands:"];
  for (const name of commandNames()) {
    const mod = await loadCommand(name);
    lines.push(`  ${name.padEnd(14)} ${mod?.summary ?? ""}`);
  }
  lines.push("", "Run `calibkit <command> --help` for the options of one command.");
  process.stdout.write(lines.join("\n") + "\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
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
