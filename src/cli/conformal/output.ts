// The command's one JSON object, written in pieces: the head with JSON.stringify, then one prediction at a
// time into ~1 MiB chunks, so 100,000 predictions never become one string or one array of objects.

/** A number as the command prints it: finite numbers as JSON numbers, ±∞ as the strings "Infinity" / "-Infinity". */
export const num = (x: number): string => (Number.isFinite(x) ? String(x) : `"${x}"`);
export const finite = (x: number): number | string => (Number.isFinite(x) ? x : String(x));

export class JsonOut {
  private parts: string[] = [];
  private size = 0;
  private first = true;

  /** Writes `head` (an object) with its last key `predictions` left open for add(). */
  constructor(head: Record<string, unknown>) {
    const text = JSON.stringify({ ...head, predictions: [] });
    this.push(text.slice(0, -2)); // drop "]}"
  }

  /** One prediction, already JSON text. */
  add(json: string): void {
    this.push(this.first ? json : "," + json);
    this.first = false;
  }

  end(): void {
    this.push("]}\n");
    this.flush();
  }

  private push(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.parts.length) process.stdout.write(this.parts.join(""));
    this.parts = [];
    this.size = 0;
  }
}
