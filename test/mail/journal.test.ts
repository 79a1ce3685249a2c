// The journal and the queue state rebuilt from it: torn tails, replays, and the lifecycle summaries.
import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Journal } from "../../src/mail/journal.js";
import { summarize, emptyCounts } from "../../src/mail/lifecycle.js";
import { SendStore, type AcceptRecord } from "../../src/mail/store.js";
import { backoffMs, DEFAULT_RETRY } from "../../src/mail/worker.js";
import { KeyRing } from "../../src/mail/auth.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "calibkit-journal-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("Journal", () => {
  it("reads back every acknowledged record, group-commits concurrent appends, and drops a torn tail", async () => {
    const path = join(dir, "j.jsonl");
    const { journal, records } = await Journal.open(path);
    expect(records).toEqual([]);
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append([{ i }])));
    await journal.close();
    await appendFile(path, '{"i": 50, "cut sh');
    const again = await Journal.open(path);
    expect(again.records).toHaveLength(50);
    await again.journal.append([{ i: "after" }]);
    await again.journal.close();
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(51);
    expect(JSON.parse(lines[50]!)).toEqual({ i: "after" });
  });

  it("refuses a damaged line before the end", async () => {
    const path = join(dir, "j.jsonl");
    await appendFile(path, '{"a":1}\nnot json\n{"b":2}\n');
    await expect(Journal.open(path)).rejects.toThrow(/damaged at line 2/);
  });
});

describe("SendStore and lifecycles", () => {
  const accept: AcceptRecord = {
    t: "accept", id: "s1", kind: "batch", at: "2026-01-01T00:00:00.000Z", engine: "smtp", from: "a@b.org", template: "default",
    subject: "", text: "", messages: [{ m: "s1.0@x", to: "a@example.org" }, { m: "s1.1@x", to: "b@example.org" }],
  };

  it("applies only allowed transitions, so a replayed or stale record changes nothing", () => {
    const store = new SendStore();
    store.apply(accept);
    store.apply(accept);
    expect(store.send("s1")!.counts).toMatchObject({ pending: 2 });
    store.apply({ t: "state", m: "s1.0@x", s: "deferred", at: "t1", n: 1, next: 5 });
    store.apply({ t: "state", m: "s1.0@x", s: "deferred", at: "t2", n: 2, next: 9 });
    expect(store.summaryOf("s1")).toEqual({ status: "queued", injection_status: "queued", delivery_status: "deferred" });
    store.apply({ t: "state", m: "s1.0@x", s: "delivered", at: "t3", n: 3 });
    store.apply({ t: "state", m: "s1.0@x", s: "bounced", at: "t4", n: 4 });
    expect(store.message("s1.0@x")).toMatchObject({ state: "delivered", attempts: 3 });
    store.apply({ t: "state", m: "s1.1@x", s: "bounced", at: "t5", n: 1 });
    expect(store.send("s1")!.counts).toEqual({ pending: 0, deferred: 0, delivered: 1, bounced: 1, failed: 0 });
    expect(store.summaryOf("s1")).toEqual({ status: "completed_with_failures", injection_status: "partial", delivery_status: "partial" });
    expect(store.unfinished()).toEqual([]);
  });

  it("summarizes uniform sends by their common state", () => {
    expect(summarize({ ...emptyCounts(), pending: 3 })).toEqual({ status: "queued", injection_status: "queued", delivery_status: "pending" });
    expect(summarize({ ...emptyCounts(), delivered: 3 })).toEqual({ status: "completed", injection_status: "injected", delivery_status: "delivered" });
    expect(summarize({ ...emptyCounts(), failed: 1, bounced: 1 })).toEqual({ status: "completed_with_failures", injection_status: "failed", delivery_status: "partial" });
    expect(summarize({ ...emptyCounts(), pending: 1, delivered: 1 })).toMatchObject({ delivery_status: "pending", injection_status: "queued" });
  });

  it("backs off exponentially within the cap", () => {
    expect(backoffMs(DEFAULT_RETRY, 1, () => 0)).toBe(500);
    expect(backoffMs(DEFAULT_RETRY, 3, () => 1)).toBe(4000);
    expect(backoffMs(DEFAULT_RETRY, 30, () => 1)).toBe(300_000);
  });

  it("verifies keys by digest", () => {
    const ring = new KeyRing(["secret-key-1"], ["ab".repeat(32)]);
    expect(ring.verify("secret-key-1")).toBe(true);
    expect(ring.verify("secret-key-2")).toBe(false);
    expect(ring.verify(undefined)).toBe(false);
    expect(ring.size).toBe(2);
  });
});
