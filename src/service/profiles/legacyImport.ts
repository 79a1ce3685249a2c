// `calibkit serve --import DIR`: reads a data folder of the format before the store (per-profile write-ahead
// logs, job snapshots, the human queue's log) into the store, once. A profile, job or item already in the
// store is left as it is, so running the import twice adds nothing.
//
// The old log: JSON Lines, each line `<byte length>:<sha256 hex>:<json>\n`; a line whose length or checksum
// does not match (a torn tail, corruption) was never acknowledged, or is reported and skipped.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HumanQueueItem, LabellingJob } from "../../api/index.js";
import type { Store } from "../../store/index.js";
import type { ProfileMeta, ProfileRecord } from "./records.js";

/** The intact records of an old log, in order, and the 1-based numbers of the lines it could not read. */
export function readLegacyLog<T>(content: Buffer): { records: T[]; bad: number[] } {
  const records: T[] = [];
  const bad: number[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < content.length) {
    let end = content.indexOf(0x0a, start);
    if (end < 0) end = content.length;
    lineNo++;
    const line = content.subarray(start, end);
    start = end + 1;
    const first = line.indexOf(0x3a);
    const second = first < 0 ? -1 : line.indexOf(0x3a, first + 1);
    const json = second < 0 ? undefined : line.subarray(second + 1);
    const ok = json !== undefined && first > 0 && Number(line.subarray(0, first).toString("ascii")) === json.length &&
      createHash("sha256").update(json).digest("hex") === line.subarray(first + 1, second).toString("ascii");
    if (!ok) {
      bad.push(lineNo);
      continue;
    }
    records.push(JSON.parse(json.toString("utf8")) as T);
  }
  return { records, bad };
}

const readOptional = (path: string) => readFile(path).catch((err: NodeJS.ErrnoException) => {
  if (err.code === "ENOENT") return undefined;
  throw err;
});

export async function importLegacyDataDir(store: Store, dir: string, log: (line: string) => void): Promise<void> {
  const profileDirs = await readdir(join(dir, "profiles")).catch(() => [] as string[]);
  for (const name of profileDirs.sort()) {
    const metaText = await readOptional(join(dir, "profiles", name, "profile.json"));
    if (!metaText) continue; // created up to the folder, never acknowledged
    const meta = JSON.parse(metaText.toString("utf8")) as ProfileMeta;
    const { created } = await store.profiles.create(meta.name, meta, meta.created_at);
    if (!created) {
      log(`import: profile ${meta.name} is already in the store; left as it is`);
      continue;
    }
    const { records, bad } = readLegacyLog<ProfileRecord>((await readOptional(join(dir, "profiles", name, "wal.jsonl"))) ?? Buffer.alloc(0));
    let seq = 0;
    let examples = 0;
    for (const record of records) {
      await store.profiles.append(meta.name, seq, async () => ({
        event: { kind: record.t, record, idempotency: record.t === "examples" ? record.idempotency : undefined }, value: undefined,
      }));
      seq++;
      if (record.t === "examples") examples += record.examples.length;
    }
    log(`import: profile ${meta.name}: ${examples} examples in ${records.length} records${bad.length ? `; unreadable log lines skipped: ${bad.join(", ")}` : ""}`);
  }

  const items = readLegacyLog<HumanQueueItem>((await readOptional(join(dir, "human-queue", "wal.jsonl"))) ?? Buffer.alloc(0)).records;
  if (items.length > 0) {
    await store.humanQueue.insert(items.map((item) => ({ id: item.id, profile: item.profile, kind: item.kind, status: String(item.status ?? "pending"), created_at: item.created_at, item })));
    log(`import: ${items.length} human-queue items`);
  }

  const jobFiles = (await readdir(join(dir, "jobs")).catch(() => [] as string[])).filter((f) => f.endsWith(".json") && !f.includes(".tmp-"));
  for (const file of jobFiles) {
    const job = JSON.parse(await readFile(join(dir, "jobs", file), "utf8")) as LabellingJob;
    if (await store.jobs.get(job.id!)) continue;
    if (job.status === "queued" || job.status === "running") {
      // The old service kept no request to resume from: the job ends as that service would have ended it.
      Object.assign(job, { status: "failed", error: "the service stopped before the job finished; submit it again" });
    }
    await store.jobs.insert({ id: job.id!, profile: job.profile!, status: job.status!, updatedAt: job.updated_at ?? new Date().toISOString() }, job, null, "import", 0);
  }
  if (jobFiles.length > 0) log(`import: ${jobFiles.length} labelling jobs`);
}
