// The calibkit version every summary names: read from package.json, two folders above src/run and dist/run.
import { readFile } from "node:fs/promises";

export async function calibkitVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "unknown";
}
