// The command's one JSON object, written in pieces: the head with JSON.stringify, then one prediction at a
// time into ~1 MiB chunks, so 100,000 predictions never become one string or one array of objects.
// Written as pieces appended to one chunk string, not one string per prediction joined later.

/** A number as the command prints it: finite numbers as JSON numbers, ±∞ as the strings "Infinity" / "-Infinity". */
export const num = (x: number): string => (Number.isFinite(x) ? String(x) : `"${x}"`);
export const finite = (x: number): number | string => (Number.isFinite(x) ? x : String(x));

const CHUNK = 1 << 20;

export class JsonOut {
  // One growing string per ~1 MiB chunk: appending short pieces to it, flattened once at the write, costs
  // half of building each prediction as its own string and joining them.
  private text: string;
  private first = true;

  /** Writes `head` (an object) with its last key `predictions` left open for add(). */
  constructor(head: Record<string, unknown>) {
    this.text = JSON.stringify({ ...head, predictions: [] }).slice(0, -2); // drop "]}"
  }

  /** One prediction, already JSON text. */
  add(json: string): void {
    this.text += this.first ? json : "," + json;
    this.first = false;
    if (this.text.length > CHUNK) this.flush();
  }

  /**
   * Predictions written by the caller into its own string: `text` holds whole predictions, each but the
   * first of the output preceded by a comma (`separator()` says whether the next one needs it).
   */
  addText(text: string): void {
    this.text += text;
    if (this.text.length > CHUNK) this.flush();
  }

  separator(): string {
    const s = this.first ? "" : ",";
    this.first = false;
    return s;
  }

  end(): void {
    this.text += "]}\n";
    this.flush();
  }

  private flush(): void {
    if (this.text) process.stdout.write(this.text);
    this.text = "";
  }
}
