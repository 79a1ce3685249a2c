// A real node:http server on 127.0.0.1, port 0, that answers each request as a test scripts it and records
// what it saw. No mocks: the clients go through undici and the loopback socket.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Reply {
  status: number;
  /** Sent as JSON unless `raw` is given. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** Waits this long before answering, in milliseconds. */
  delayMs?: number;
}

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  seen: Seen[];
  close(): Promise<void>;
}

export type Handler = (request: Seen, index: number) => Reply | Promise<Reply>;

/** Answers the n-th request with the n-th reply, repeating the last one. */
export function script(...replies: Reply[]): Handler {
  return (_request, index) => replies[Math.min(index, replies.length - 1)]!;
}

export async function startServer(handler: Handler): Promise<ScriptedServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = body === "" ? undefined : JSON.parse(body);
      } catch {
        json = undefined;
      }
      const request: Seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, json, at: performance.now() };
      const index = seen.length;
      seen.push(request);
      void Promise.resolve(handler(request, index)).then(async (reply) => {
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        const payload = reply.raw ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
        res.writeHead(reply.status, {
          ...(reply.raw === undefined && reply.body !== undefined ? { "content-type": "application/json" } : {}),
          ...reply.headers,
        });
        res.end(payload);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
