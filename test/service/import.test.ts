// `calibkit serve --import DIR`: a data folder of the format before the store (per-profile write-ahead logs
// of `<length>:<sha256>:<json>` lines, job snapshots, the human queue's log), written here byte for byte as
// the old service wrote it, is read into the store once; a second import adds nothing.
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { CLIENT_BACKEND, startServer, tempDir } from "./helpers.js";
import { spawnCalibkit } from "./helpers.js";

function line(record: unknown): string {
  const json = Buffer.from(JSON.stringify(record), "utf8");
  return `${json.length}:${createHash("sha256").update(json).digest("hex")}:${json.toString("utf8")}\n`;
}

const evidence = (p: number) => ({ evidence: { option_probabilities: { A: p, B: 1 - p } } });

it("reads an old data folder into the store once", async () => {
  const old = await tempDir("calibkit-old-");
  const meta = { name: "legacy", backend: CLIENT_BACKEND, method: "LAC", alpha: 0.2, strict_fingerprint: false, created_at: "2026-01-01T00:00:00.000Z" };
  await mkdir(join(old, "profiles", "legacy"), { recursive: true });
  await writeFile(join(old, "profiles", "legacy", "profile.json"), JSON.stringify(meta));
  const batch = (from: number, key?: string) => ({
    t: "examples", at: "2026-01-02T00:00:00.000Z",
    examples: Array.from({ length: 10 }, (_, i) => ({ context: `c${from + i}`, label: i % 3 ? "A" : "B", metadata: evidence(0.55 + (i % 4) / 10) })),
    ...(key ? { idempotency: { key, sha256: "0".repeat(64) } } : {}),
  });
  const audit = { t: "audit", result: { result: "pass", realized_coverage: 0.9, ci: [0.8, 0.95], sample: 10, target: 0.8, date: "2026-01-03T00:00:00.000Z" }, method: "LAC", alpha: 0.2, version: 2 };
  await writeFile(join(old, "profiles", "legacy", "wal.jsonl"),
    line(batch(0, "first")) + line(batch(10)) + line(audit) + "57:deadbeef:{\"torn"); // a torn tail: never acknowledged
  await mkdir(join(old, "human-queue"));
  await writeFile(join(old, "human-queue", "wal.jsonl"), line({ id: "hq_1", kind: "escalation", profile: "legacy", context: "why?", created_at: "2026-01-04T00:00:00.000Z", status: "pending" }));
  await mkdir(join(old, "jobs"));
  await writeFile(join(old, "jobs", "job_1.json"), JSON.stringify({ id: "job_1", profile: "legacy", status: "running", total: 3, labelled: 1, human_review: [], created_at: "2026-01-05T00:00:00.000Z", updated_at: "2026-01-05T00:00:00.000Z", error: null }));

  const data = await tempDir("calibkit-new-");
  for (let run = 0; run < 2; run++) {
    const server = await spawnCalibkit(["serve", "--port", "0", "--data", data, "--import", old]);
    try {
      const get = async (path: string) => (await (await fetch(`${server.url}/api/v1${path}`)).json()) as Record<string, any>;
      expect(await get("/calibration-profiles/legacy")).toMatchObject({ n: 20, version: 2, alpha: 0.2, last_audit: { result: "pass", realized_coverage: 0.9 } });
      expect((await get("/calibration-profiles/legacy/audits")).audits).toHaveLength(1);
      expect((await get("/human-queue")).items).toMatchObject([{ id: "hq_1", kind: "escalation", profile: "legacy" }]);
      expect(await get("/calibration-profiles/legacy/label-with-judge/job_1")).toMatchObject({ status: "failed", error: expect.stringMatching(/submit it again/) });
      // The imported idempotency key is honoured: the same key is a replay, not a second batch.
      const replay = await fetch(`${server.url}/api/v1/calibration-profiles/legacy/examples`, {
        method: "POST", headers: { "content-type": "application/json", "idempotency-key": "first" }, body: JSON.stringify({ examples: [{ context: "x", label: "A" }] }),
      });
      expect(replay.status).toBe(422);
      expect(server.stderr()).toMatch(run === 0 ? /import: profile legacy: 20 examples in 3 records/ : /profile legacy is already in the store/);
    } finally {
      await server.stop();
    }
  }
  // Plain restarts serve the imported data without the old folder.
  const plain = await startServer({ data });
  try {
    expect(((await (await fetch(`${plain.url}/api/v1/calibration-profiles/legacy`)).json()) as { n: number }).n).toBe(20);
  } finally {
    await plain.stop();
  }
}, 60_000);
