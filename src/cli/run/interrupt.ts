// Ctrl-C (SIGINT) or SIGTERM during a run: the temporary folders the run made (the embedded service's
// data folder, which holds its lock) are removed before the process ends, with the conventional exit
// status 128 + signal number. Removal is synchronous: a signal may arrive while the event loop is
// busy in the model, and nothing asynchronous is guaranteed to run after it.
import { rmSync } from "node:fs";

const temporary = new Set<string>();
let installed = false;

const EXIT_STATUS = { SIGINT: 130, SIGTERM: 143 } as const;

function onSignal(signal: keyof typeof EXIT_STATUS): void {
  process.stderr.write(`\ncalibkit: ${signal === "SIGINT" ? "interrupted" : "terminated"}; removing ${temporary.size} temporary folder(s)\n`);
  for (const path of temporary) rmSync(path, { recursive: true, force: true });
  temporary.clear();
  process.exit(EXIT_STATUS[signal]);
}

/** Removes `path` if the run is interrupted; the returned function forgets it (after a normal removal). */
export function removeOnInterrupt(path: string): () => void {
  if (!installed) {
    installed = true;
    process.once("SIGINT", () => onSignal("SIGINT"));
    process.once("SIGTERM", () => onSignal("SIGTERM"));
  }
  temporary.add(path);
  return () => void temporary.delete(path);
}
