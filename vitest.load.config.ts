// The load tests (test/**/*.load.test.ts), one file at a time on an otherwise idle machine: each times how a
// second client is served while a first one attacks, and any other test running beside it would be timed too.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

export default defineConfig({
  test: {
    ...base.test,
    include: ["test/**/*.load.test.ts"],
    exclude: ["**/node_modules/**"],
    maxWorkers: 1,
    fileParallelism: false,
  },
});
