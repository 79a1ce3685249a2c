// What every calibkit command does the same way: strict option parsing with `--help`, integer options,
// usage errors on stderr with exit code 2, and servers that run until SIGTERM or SIGINT.
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>>;

/** A usage error of a command: printed as `calibkit <command>: <message>`, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * The message of a parseArgs error as a user should read it. Node's own for an option whose value was forgotten
 * ("`--alpha` argument is ambiguous", when the next argument is another option) becomes what happened and how to
 * write it; any other message is kept.
 */
export function parseArgsMessage(err: unknown, argv: readonly string[]): string {
  const message = err instanceof Error ? err.message : String(err);
  const ambiguous = /^Option '(-[^' ]+)(?: <value>)?' argument is ambiguous/.exec(message);
  if (!ambiguous) return message.split("\n")[0]!;
  const option = ambiguous[1]!;
  const at = argv.indexOf(option);
  const next = at >= 0 ? argv[at + 1] : undefined;
  return `${option} needs a value, but is followed by ${next === undefined ? "another option" : `the option ${next}`}; write ${option} VALUE (or ${option}=-VALUE for a value that starts with "-")`;
}

/**
 * Parses a command's arguments strictly. Returns the exit code instead when there is nothing more to do:
 * 0 after printing the help for `--help`, 2 after naming the bad option and printing the help.
 */
export function parseCommand<O extends Options>(
  command: string, argv: string[], options: O, help: string, { positionals = false } = {},
): Parsed<O> | number {
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs({
      args: argv, strict: true, allowPositionals: true,
      options: { ...options, help: { type: "boolean", short: "h" } },
    }) as Parsed<O>;
  } catch (err) {
    return usage(command, parseArgsMessage(err, argv), help);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(help);
    return 0;
  }
  if (!positionals && parsed.positionals.length > 0) {
    return usage(command, `unexpected argument "${parsed.positionals[0]}"`, help);
  }
  return parsed;
}

/** Prints a usage error (and the help, when given) and returns exit code 2. */
export function usage(command: string, message: string, help = ""): number {
  process.stderr.write(`calibkit ${command}: ${message}\n${help}`);
  return 2;
}

/** An integer option within [min, max], or the fallback when absent; a UsageError names the option otherwise. */
export function intOption(name: string, value: string | undefined, fallback: number, min: number, max: number): number;
export function intOption(name: string, value: string | undefined, fallback: undefined, min: number, max: number): number | undefined;
export function intOption(name: string, value: string | undefined, fallback: number | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not "${value}"`);
  }
  return n;
}

/** Resolves on the first SIGTERM or SIGINT, after reporting it on stderr as `<label>: <signal>, <what>`. */
export function untilSignal(label: string, what = "closing"): Promise<void> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      process.stderr.write(`${label}: ${signal}, ${what}\n`);
      resolve();
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}
