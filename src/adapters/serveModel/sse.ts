// Server-Sent Events as OpenAI streams them: `data: <json>` events, then `data: [DONE]`; an error after the
// headers went out is sent as a `data: {"error": …}` event, which OpenAI's SDKs raise.
import type { ServerResponse } from "node:http";

export class SseStream {
  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      // Proxies such as nginx buffer a response unless told not to; a stream must arrive as it is made.
      "x-accel-buffering": "no",
    });
  }

  get open(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }

  send(event: unknown): void {
    if (this.open) this.res.write(`data: ${JSON.stringify(event)}\n\n`);
  }

  done(): void {
    if (!this.open) return;
    this.res.write("data: [DONE]\n\n");
    this.res.end();
  }
}

/**
 * The text of a generation as it can be streamed: whatever might still turn out to be the start of a stop
 * string, or a character whose UTF-8 bytes are not all generated yet (U+FFFD), is held back until it is settled,
 * so the streamed pieces always join to the final text.
 */
export class SettledText {
  #sent = 0;

  constructor(private readonly stop: readonly string[]) {}

  /** The text to send now, given everything generated so far (already cut at a stop string). */
  next(textSoFar: string): string {
    let safe = textSoFar.length;
    while (safe > 0 && textSoFar[safe - 1] === "\uFFFD") safe--;
    let hold = 0;
    for (const s of this.stop) {
      for (let k = Math.min(s.length - 1, safe); k > hold; k--) {
        if (textSoFar.endsWith(s.slice(0, k), safe)) {
          hold = k;
          break;
        }
      }
    }
    safe -= hold;
    if (safe <= this.#sent) return "";
    const piece = textSoFar.slice(this.#sent, safe);
    this.#sent = safe;
    return piece;
  }

  /** What is left to send of the final text. */
  rest(finalText: string): string {
    const piece = finalText.slice(this.#sent);
    this.#sent = finalText.length;
    return piece;
  }
}
