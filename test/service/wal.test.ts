// The write-ahead log's recovery rules, on files damaged the way a crash (or a bad disk) leaves them.
import { appendFile, readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WriteAheadLog } from "../../src/service/index.js";
import { KeyedMutex } from "../../src/service/store/mutex.js";
import { tempDir } from "./helpers.js";

async function logWith(records: unknown[]): Promise<string> {
  const path = join(await tempDir("calibkit-wal-"), "wal.jsonl");
  const { wal } = await WriteAheadLog.open(path);
  for (const r of records) await wal.append(r);
  await wal.close();
  return path;
}

describe("write-ahead log", () => {
  it("replays every record in order", async () => {
    const path = await logWith([{ a: 1 }, { b: [2, "ü"] }, { c: null }]);
    const { wal, recovery } = await WriteAheadLog.open(path);
    expect(recovery).toEqual({ records: [{ a: 1 }, { b: [2, "ü"] }, { c: null }], truncatedBytes: 0, skippedLines: [] });
    await wal.close();
  });

  it("cuts a torn last line at every possible length, then appends cleanly after it", async () => {
    const path = await logWith([{ first: true }, { second: "x".repeat(50) }]);
    const full = await readFile(path);
    const firstEnd = full.indexOf(0x0a) + 1;
    for (let cut = firstEnd + 1; cut < full.length; cut += 7) {
      await writeFile(path, full.subarray(0, cut));
      const { wal, recovery } = await WriteAheadLog.open(path);
      expect(recovery.records).toEqual([{ first: true }]);
      expect(recovery.truncatedBytes).toBe(cut - firstEnd);
      await wal.append({ third: 3 });
      await wal.close();
      const again = await WriteAheadLog.open(path);
      expect(again.recovery.records).toEqual([{ first: true }, { third: 3 }]);
      await again.wal.close();
    }
  });

  it("drops a complete last line whose checksum does not match", async () => {
    const path = await logWith([{ ok: 1 }, { flipped: 2 }]);
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace('"flipped":2', '"flipped":3'));
    const { wal, recovery } = await WriteAheadLog.open(path);
    expect(recovery.records).toEqual([{ ok: 1 }]);
    expect(recovery.truncatedBytes).toBeGreaterThan(0);
    await wal.close();
  });

  it("skips a corrupt line inside the log and keeps the acknowledged lines after it", async () => {
    const path = await logWith([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace('{"n":2}', '{"n":9}'));
    const { wal, recovery } = await WriteAheadLog.open(path);
    expect(recovery.records).toEqual([{ n: 1 }, { n: 3 }]);
    expect(recovery.skippedLines).toEqual([2]);
    expect(recovery.truncatedBytes).toBe(0);
    await wal.close();
  });

  it("treats garbage appended after a crash as a torn tail", async () => {
    const path = await logWith([{ n: 1 }]);
    await appendFile(path, "12:deadbeef:{\"n\"");
    const { wal, recovery } = await WriteAheadLog.open(path);
    expect(recovery.records).toEqual([{ n: 1 }]);
    await wal.close();
    await truncate(path, 0);
    const empty = await WriteAheadLog.open(path);
    expect(empty.recovery.records).toEqual([]);
    await empty.wal.close();
  });
});

describe("keyed mutex", () => {
  it("runs tasks of one key one at a time, in order, and other keys alongside", async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (key: string, id: number, ms: number) => mutex.run(key, async () => {
      log.push(`start ${key}${id}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${key}${id}`);
      if (id === 2) throw new Error("boom");
      return id;
    });
    const results = await Promise.allSettled([task("a", 1, 20), task("a", 2, 1), task("a", 3, 1), task("b", 1, 1)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(log.filter((l) => l.endsWith("a1") || l.endsWith("a2") || l.endsWith("a3"))).toEqual(["start a1", "end a1", "start a2", "end a2", "start a3", "end a3"]);
    expect(log.indexOf("end b1")).toBeLessThan(log.indexOf("end a1"));
  });
});
