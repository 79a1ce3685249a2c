// An unreachable database seen from outside: a real `calibkit serve` on a real PostgreSQL that is stopped
// under it. Writes answer 503 with retry-after and a message naming the cause, nothing acknowledged is lost,
// and writes resume by themselves once the server is back (no restart of the service).
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../store/postgresServer.js";
import { CLIENT_BACKEND, startServer, type Spawned } from "./helpers.js";

let postgres: PostgresServer;
let server: Spawned;
beforeAll(async () => {
  postgres = startPostgres();
  server = await startServer({ store: await postgres.database("unreachable") });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  postgres?.destroy();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Record<string, any> };
}
const batch = { examples: [{ context: "c", label: "A", metadata: { evidence: { option_probabilities: { A: 0.6, B: 0.4 } } } }] };

it("answers 503 with retry-after while PostgreSQL is down and takes writes again once it is back", async () => {
  expect((await post("/calibration-profiles", { name: "p", backend: CLIENT_BACKEND, alpha: 0.1 })).status).toBe(201);
  expect((await post("/calibration-profiles/p/examples", batch)).status).toBe(200);
  postgres.stop();
  const down = await post("/calibration-profiles/p/examples", batch);
  expect(down.status).toBe(503);
  expect(down.body.error).toBe("store_unavailable");
  expect(down.body.message).toMatch(/database|connection|PostgreSQL/i);
  expect(Number(down.retryAfter)).toBeGreaterThanOrEqual(1);
  // The log names the cause on one line: a passing outage is not a crash with a stack trace.
  const logged = server.stderr().split("\n").filter((line) => line.includes(" 503 "));
  expect(logged.length).toBeGreaterThan(0);
  expect(server.stderr()).not.toMatch(/^\s+at /m);
  expect((await post("/calibration-profiles", { name: "q", backend: CLIENT_BACKEND, alpha: 0.1 })).status).toBe(503);
  // Reads of what this instance holds keep working.
  expect(((await (await fetch(`${server.url}/api/v1/calibration-profiles/p`)).json()) as { n: number }).n).toBe(1);
  postgres.start();
  const back = await post("/calibration-profiles/p/examples", batch);
  expect(back.status).toBe(200);
  expect(back.body.n).toBe(2);
}, 60_000);
