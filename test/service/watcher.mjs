// The second client of the lockout tests, in a process of its own so that the test's own work (building bodies,
// opening a thousand sockets) is not counted in its timings: from 127.0.0.2 it asks for /health and a normal
// evaluate in turn, one request at a time, and on "mark" (stdin) or at its end prints what it saw as JSON lines.
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";

const [host, port, key, evaluateBody] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, localAddress: "127.0.0.2", maxSockets: 1 });
let answers = [];
let stop = false;

function send(method, path, body) {
  const started = performance.now();
  return new Promise((ok) => {
    const headers = { authorization: `Bearer ${key}` };
    if (body) headers["content-type"] = "application/json";
    const req = request({ host, port: Number(port), method, path: `/api/v1${path}`, headers, agent }, (res) => {
      res.resume();
      res.on("end", () => ok({ status: res.statusCode, ms: performance.now() - started }));
    });
    req.on("error", (err) => ok({ status: 0, error: err.message, ms: performance.now() - started }));
    req.end(body);
  });
}

createInterface({ input: process.stdin }).on("line", (line) => {
  process.stdout.write(`${JSON.stringify(answers)}\n`);
  answers = [];
  if (line === "stop") stop = true;
});

for (let i = 0; !stop; i++) {
  answers.push(i % 2 === 0 ? await send("GET", "/health") : await send("POST", "/evaluate", evaluateBody));
  await new Promise((ok) => setTimeout(ok, 5));
}
agent.destroy();
process.exit(0);
