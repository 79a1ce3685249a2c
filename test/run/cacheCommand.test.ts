// `calibkit cache list|prune` on a cache filled through the store's own interface.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EvidenceCache, type EvidenceKey } from "../../src/store/index.js";

const calibkit = (args: string[]) => spawnSync(process.execPath, ["bin/calibkit.js", "cache", ...args], { env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" }, encoding: "utf8" });
const key = (model: string, i: number): EvidenceKey => ({ fingerprint: `sha256:${model}`, promptHash: "sha256:p", contentHash: `sha256:${i}`, accessLevel: "L3", sampling: "{}" });

describe("calibkit cache", () => {
  it("lists rows per model and prunes by model, keeping the rest", () => {
    const dir = mkdtempSync(join(tmpdir(), "calibkit-cache-cmd-"));
    const cache = EvidenceCache.open(dir);
    expect(cache.putMany([0, 1, 2].map((i) => ({ key: key("aaa", i), model: "/m/a.gguf", evidence: { option_probabilities: { A: 1 } } })))).toBe(3);
    expect(cache.putMany([0, 1].map((i) => ({ key: key("bbb", i), model: "/m/b", evidence: { option_probabilities: { A: 1 } } })))).toBe(2);
    // A row already there is left as it was: the second writer adds nothing.
    expect(cache.putMany([{ key: key("bbb", 0), model: "/m/b", evidence: { option_probabilities: { A: 0 } } }])).toBe(0);
    expect(cache.getMany([key("bbb", 0), key("ccc", 0)])).toEqual(new Map([[0, { option_probabilities: { A: 1 } }]]));
    cache.close();

    const list = calibkit(["list", "--cache", dir]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/5 evidence rows/);
    expect(list.stdout).toMatch(/\s3\s+\/m\/a\.gguf\s+L3/);
    expect(list.stdout).toMatch(/\s2\s+\/m\/b\s+L3/);

    expect(calibkit(["prune", "--cache", dir]).status).toBe(2);
    expect(calibkit(["purge", "--cache", dir]).stderr).toMatch(/expected "list" or "prune", got "purge"/);
    const prune = calibkit(["prune", "--cache", dir, "--model", "a.gguf"]);
    expect(prune.stdout).toMatch(/pruned 3 evidence rows/);
    expect(calibkit(["list", "--cache", dir]).stdout).toMatch(/2 evidence rows/);
    expect(calibkit(["prune", "--cache", dir, "--all"]).stdout).toMatch(/pruned 2 evidence rows/);
  });
});
