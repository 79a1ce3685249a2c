#!/usr/bin/env node
// Runs the compiled CLI; in a checkout without a build (development), runs the TypeScript source through tsx.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const compiled = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (existsSync(compiled) && !process.env.CALIBKIT_FROM_SOURCE) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli/main.ts", import.meta.url).href);
}
