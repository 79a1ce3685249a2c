// The baseline server of bench/service.ts: a bare node:http server that reads the body, parses it and sends it
// back as JSON — what any JSON service pays before doing any work of its own.
import { createServer } from "node:http";

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const out = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
    res.end(out);
  });
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
});
