// `calibkit mail-serve --import OLD_DIR`: reads the journal the mail service kept before the store
// (`OLD_DIR/journal.jsonl`) into the store, once. The old journal: one JSON record per line, an `accept` per
// send (the rendered message, its recipients' message ids, its Idempotency-Key) and a `state` per delivery
// state change, appended and fsynced before the answer. Its records are folded with the same lifecycle rules
// the queue applies, and each send is written with its messages' last states in one transaction; a send
// already in the store is left as it is, so importing twice adds nothing.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MailAccept, MailStateChange, Store } from "../store/index.js";
import { JournalCorruptError, MailConfigError } from "./errors.js";
import { DELIVERY_STATES } from "./lifecycle.js";
import { SendStore, type AcceptRecord, type JournalRecord } from "./store.js";

export const LEGACY_JOURNAL_FILE = "journal.jsonl";
/** Sends written per transaction. */
const CHUNK = 200;

export interface JournalImport {
  sends: number;
  messages: number;
  /** Sends already in the store (a second import), left as they are. */
  present: number;
  /** Sends whose Idempotency-Key another send in the store holds: not imported. */
  keyTaken: string[];
  /** Messages by delivery state, as imported. */
  states: Record<string, number>;
  tornTail: boolean;
}

function isRecord(value: unknown): value is JournalRecord {
  const r = value as Partial<Record<string, unknown>> | null;
  if (typeof r !== "object" || r === null) return false;
  if (r.t === "accept") {
    return typeof r.id === "string" && typeof r.at === "string" && (r.kind === "send" || r.kind === "batch") && Array.isArray(r.messages) &&
      r.messages.every((m: { m?: unknown; to?: unknown }) => typeof m?.m === "string" && typeof m.to === "string");
  }
  return r.t === "state" && typeof r.m === "string" && typeof r.at === "string" && typeof r.n === "number" &&
    (DELIVERY_STATES as readonly unknown[]).includes(r.s);
}

/**
 * The journal's records in order. A last line without its newline was cut short by a kill and never
 * acknowledged: it is dropped, as the old service dropped it. A damaged line before it is an error naming the
 * line — the old service refused to start on one too, and skipping it could lose an acknowledged send.
 */
export function readLegacyJournal(path: string, content: string): { records: JournalRecord[]; tornTail: boolean } {
  const records: JournalRecord[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < content.length) {
    const end = content.indexOf("\n", start);
    lineNo++;
    if (end === -1) return { records, tornTail: true };
    const line = content.slice(start, end);
    start = end + 1;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new JournalCorruptError(path, lineNo, cause);
    }
    if (!isRecord(value)) throw new JournalCorruptError(path, lineNo, new Error("not an accept or state record of the mail journal"));
    records.push(value);
  }
  return { records, tornTail: false };
}

export async function importLegacyJournal(store: Store, dir: string, log: (line: string) => void): Promise<JournalImport> {
  const path = join(dir, LEGACY_JOURNAL_FILE);
  let content: string;
  try {
    content = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new MailConfigError(`--import ${dir}: no ${LEGACY_JOURNAL_FILE} there; name the data folder the mail service used before the store`, { field: "import" });
    }
    throw err;
  }
  const { records, tornTail } = readLegacyJournal(path, content);
  const folded = new SendStore();
  const sends: AcceptRecord[] = [];
  for (const r of records) {
    if (r.t === "accept" && !folded.send(r.id)) sends.push(r);
    folded.apply(r);
  }

  const result: JournalImport = { sends: 0, messages: 0, present: 0, keyTaken: [], states: {}, tornTail };
  for (let i = 0; i < sends.length; i += CHUNK) {
    const chunk = sends.slice(i, i + CHUNK);
    const present = await store.mail.existing(chunk.map((s) => s.id));
    const accepts: MailAccept[] = [];
    const changes: MailStateChange[] = [];
    for (const send of chunk) {
      if (present.has(send.id)) continue;
      accepts.push({ id: send.id, record: send, acceptedAt: send.at, idempotencyKey: send.idem?.key, messages: send.messages.map((m) => ({ id: m.m, to: m.to })) });
      for (const m of folded.messagesOf(send.id)) {
        if (m.state !== "pending") changes.push({ id: m.id, state: m.state, attempts: m.attempts, nextAt: m.nextAt, lastError: m.lastError, updatedAt: m.updatedAt });
      }
    }
    const { taken } = await store.mail.write(accepts, changes);
    result.present += present.size;
    for (const a of accepts) {
      if (taken.has(a.id)) {
        result.keyTaken.push(a.idempotencyKey!);
        continue;
      }
      result.sends++;
      for (const m of folded.messagesOf(a.id)) {
        result.messages++;
        result.states[m.state] = (result.states[m.state] ?? 0) + 1;
      }
    }
  }
  const states = Object.entries(result.states).map(([s, n]) => `${n} ${s}`).join(", ");
  log(`mail import: ${path}: ${result.sends} sends (${result.messages} messages${states ? `: ${states}` : ""}) imported` +
    (result.present ? `; ${result.present} already in the store, left as they are` : "") +
    (result.keyTaken.length ? `; not imported, their Idempotency-Key is held by another send in the store: ${result.keyTaken.join(", ")}` : "") +
    (tornTail ? "; a last line cut short by a kill (never acknowledged) was dropped" : ""));
  return result;
}
