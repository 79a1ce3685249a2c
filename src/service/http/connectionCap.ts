// A cap on open connections per client address: one client holding hundreds of half-sent requests cannot take
// the sockets (and file descriptors) every other client needs. A connection beyond the cap is answered 429 and
// closed at once.
import type { Server } from "node:http";
import type { Socket } from "node:net";

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
      socket.destroySoon();
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
