// Loaded with `node --import`: records every module URL the process resolves into the file named by
// $CALIBKIT_RECORD_IMPORTS, so that a test can tell what a command line loaded.
import { register } from "node:module";

register("./recordImportsHooks.mjs", import.meta.url, { data: { file: process.env.CALIBKIT_RECORD_IMPORTS } });
