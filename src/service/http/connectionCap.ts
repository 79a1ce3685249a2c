// A cap on open connections per client address: one client holding hundreds of half-sent requests cannot take
// the sockets (and file descriptors) every other client needs. A connection beyond the cap is answered 429 and
// closed at once on our side; the socket itself lingers a moment before it is destroyed, because destroying it
// while the client is still sending makes the kernel answer with a reset that can discard the 429 unread.
import type { Server } from "node:http";
import type { Socket } from "node:net";

/** How long a refused connection stays open for its client to read the 429. */
const LINGER_MS = 2000;

const refusal = (cap: number): string => {
  const body = JSON.stringify({
    error: "rate_limited",
    message: `Too many open connections from this address (at most ${cap}, config max_connections_per_client); reuse kept-alive connections`,
  });
  return `HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nretry-after: 1\r\nconnection: close\r\n\r\n${body}`;
};

/** Counts `server`'s connections per remote address and refuses those beyond `cap`. */
export function capConnectionsPerClient(server: Server, cap: number): void {
  const open = new Map<string, number>();
  const answer = refusal(cap);
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      socket.on("error", () => undefined);
      socket.end(answer);
      const linger = setTimeout(() => socket.destroy(), LINGER_MS);
      linger.unref();
      socket.once("close", () => clearTimeout(linger));
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
