// What bench/service.ts sends: synthetic calibration examples with client evidence, the evaluate request, durable
// ingestion by concurrent clients, and the same batches appended to a file with one fdatasync each (the baseline
// of a durable write: what the log before the store paid).
import { open } from "node:fs/promises";

export const BACKEND = { provider: "client_evidence", name: "bench-model", access_level: "L1" } as const;
const OPTIONS = ["A", "B", "C", "D"];

/** `n` examples numbered from `from`, the same for the same numbers; 80% of them have the label on top. */
export function examples(from: number, n: number): unknown[] {
  let s = (from * 2654435761 + 1) >>> 0;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  return Array.from({ length: n }, (_, i) => {
    const label = OPTIONS[Math.floor(rand() * 4)]!;
    const top = rand() < 0.8 ? label : OPTIONS[Math.floor(rand() * 4)]!;
    const raw = OPTIONS.map((o) => (o === top ? 2 + rand() * 3 : rand()));
    const sum = raw.reduce((a, b) => a + b, 0);
    return { context: `example ${from + i}`, label, metadata: { evidence: { option_probabilities: Object.fromEntries(OPTIONS.map((o, j) => [o, raw[j]! / sum])) } } };
  });
}

export const batchBody = (from: number, n: number) => JSON.stringify({ examples: examples(from, n) });

/** 4 set queries (LAC, alpha 0.1) over 4 options on the profile `profile`. */
export const evaluateBodyFor = (profile: string) => JSON.stringify({
  context: "A support ticket about a late delivery.",
  backend: BACKEND,
  queries: Object.fromEntries(["topic", "urgency", "tone", "team"].map((q, i) => [q, {
    type: "set", instructions: `Classify the ${q}`, options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: profile,
    evidence: { option_probabilities: { A: 0.55 - i * 0.05, B: 0.25, C: 0.12 + i * 0.03, D: 0.08 + i * 0.02 } },
  }])),
});

export async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; retryAfter: string | null }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, text: await res.text(), retryAfter: res.headers.get("retry-after") };
}

export interface IngestResult {
  examples: number;
  seconds: number;
  /** Every answer, retried ones included (a 503 or 529 is retried after its retry-after). */
  statuses: Record<string, number>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Posts examples numbered [from, to) in batches of `batch` from `writers` concurrent clients; each 200 is durable. */
export async function ingest(api: string, profile: string, from: number, to: number, batch: number, writers: number): Promise<IngestResult> {
  const statuses: Record<string, number> = {};
  let next = from;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: writers }, async () => {
    while (next < to) {
      const start = next;
      const n = Math.min(batch, to - start);
      next += n;
      const body = batchBody(start, n);
      for (let attempt = 0; ; attempt++) {
        const res = await post(`${api}/calibration-profiles/${profile}/examples`, body, { "idempotency-key": `${profile}-${start}` });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 200) break;
        if ((res.status !== 503 && res.status !== 529) || attempt >= 20) throw new Error(`ingest of ${start}..${start + n} answered ${res.status}: ${res.text.slice(0, 300)}`);
        await pause(Math.min(1000, 1000 * Number(res.retryAfter ?? 0.1)));
      }
    }
  }));
  return { examples: to - from, seconds: (performance.now() - t0) / 1000, statuses };
}

/** One client posting batches without pause until `stop()`; examples numbered from `from`. */
export function continuousIngest(api: string, profile: string, from: number, batch: number): { stop(): Promise<IngestResult & { next: number }> } {
  const statuses: Record<string, number> = {};
  let running = true;
  let next = from;
  const t0 = performance.now();
  const loop = (async () => {
    while (running) {
      const res = await post(`${api}/calibration-profiles/${profile}/examples`, batchBody(next, batch), { "idempotency-key": `${profile}-${next}` });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === 200) next += batch;
      else await pause(50);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { examples: next - from, seconds: (performance.now() - t0) / 1000, statuses, next };
    },
  };
}

/** Examples/s of appending `batches` batches' JSON to a file with one fdatasync each. */
export async function fsyncBaseline(file: string, from: number, batch: number, batches: number): Promise<number> {
  const bodies = Array.from({ length: batches }, (_, i) => batchBody(from + i * batch, batch) + "\n");
  const fh = await open(file, "a");
  const t0 = performance.now();
  for (const b of bodies) {
    await fh.appendFile(b);
    await fh.datasync();
  }
  const seconds = (performance.now() - t0) / 1000;
  await fh.close();
  return (batches * batch) / seconds;
}
