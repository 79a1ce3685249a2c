import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Load tests time a second client's answers while one client attacks: they run alone, after the rest
    // (vitest.load.config.ts), so that no other test file's work is counted as the attack's.
    exclude: ["**/node_modules/**", "test/**/*.load.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default (cores − 1) is one worker on a 2-core machine, and most of the suite's time is spent
    // waiting on child processes, PostgreSQL and loopback servers rather than computing: two files at once.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ["test/setup/freshCache.ts", "test/setup/openapiResponses.ts"],
    reporters: ["default"],
  },
});
