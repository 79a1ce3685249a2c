// A full disk seen from outside: the data folder of a real `calibkit serve` sits on a 3 MiB tmpfs that a
// filler file fills up. Writes answer 503 with retry-after and a message naming the cause, nothing
// acknowledged is lost, and writes resume by themselves once space is back. Mounting needs root (CI and the
// developers' machines run as root); elsewhere the test says why it did not run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLIENT_BACKEND, startServer, type Spawned } from "./helpers.js";

const mountPoint = mkdtempSync(join(tmpdir(), "calibkit-full-"));
let mounted = false;
try {
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint], { stdio: "ignore" });
  mounted = true;
} catch {
  console.warn(`diskFull.test: cannot mount a tmpfs at ${mountPoint} (needs root); the full-disk test does not run here`);
}

let server: Spawned;
beforeAll(async () => {
  if (mounted) server = await startServer({ data: join(mountPoint, "data") });
});
afterAll(async () => {
  await server?.stop();
  if (mounted) execFileSync("umount", [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Record<string, any> };
}

const batch = (i: number) => ({
  examples: Array.from({ length: 20 }, (_, k) => ({ context: `${i}.${k} ${"x".repeat(2000)}`, label: "A", metadata: { evidence: { option_probabilities: { A: 0.6, B: 0.4 } } } })),
});

it.runIf(mounted)("answers 503 with retry-after on a full disk, loses nothing acknowledged, and resumes once space is back", async () => {
  expect((await post("/calibration-profiles", { name: "full", backend: CLIENT_BACKEND, alpha: 0.1 })).status).toBe(201);
  const filler = join(mountPoint, "filler");
  try {
    execFileSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=64k"], { stdio: "ignore" });
  } catch {
    // dd stops with ENOSPC: the disk is full now.
  }
  let acked = 0;
  let refused: Awaited<ReturnType<typeof post>> | undefined;
  for (let i = 0; i < 200 && !refused; i++) {
    const res = await post("/calibration-profiles/full/examples", batch(i));
    if (res.status === 200) acked += 20;
    else refused = res;
  }
  expect(refused?.status).toBe(503);
  expect(refused!.body.error).toBe("store_unavailable");
  expect(refused!.body.message).toMatch(/disk is full/);
  expect(Number(refused!.retryAfter)).toBeGreaterThanOrEqual(1);
  const during = (await (await fetch(`${server.url}/api/v1/calibration-profiles/full`)).json()) as { n: number };
  expect(during.n).toBe(acked);

  rmSync(filler);
  const after = await post("/calibration-profiles/full/examples", batch(999));
  expect(after.status).toBe(200);
  expect(after.body.n).toBe(acked + 20);
  await server.stop();
  server = await startServer({ data: join(mountPoint, "data") });
  const restarted = (await (await fetch(`${server.url}/api/v1/calibration-profiles/full`)).json()) as { n: number };
  expect(restarted.n).toBe(acked + 20);
}, 60_000);
