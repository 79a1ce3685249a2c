// Reading a profile's checkpoint back from PostgreSQL at start (about 70 MB at 1,000,000 examples): the binary
// COPY the store does now (store.profiles.checkpoint) against, in the same run on the same row, the 4 MiB base64
// pieces it read before (each piece checked to be of the same checkpoint), with the server's own share — the
// same COPY written to /dev/null by PostgreSQL itself — as the floor. Also the longest stall of the event loop
// during each read (a 1 ms interval timer's longest gap).
// Run: npx tsx bench/checkpointRead.ts [--mb 70] [--rounds 5]
import { randomFillSync } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { openStore } from "../src/store/index.js";
import { startPostgres } from "../test/store/postgresServer.js";

const { values } = parseArgs({ options: { mb: { type: "string", default: "70" }, rounds: { type: "string", default: "5" } } });
const SIZE = Number(values.mb) * 1024 * 1024;
const ROUNDS = Number(values.rounds);
const PIECE = 4 << 20;

const server = startPostgres();
const lines: string[] = [];
try {
  const url = await server.database("checkpoint_read");
  const store = await openStore({ url });
  await store.profiles.create("p", { name: "p" }, new Date().toISOString());
  // Random bytes: like a checkpoint's columns of probabilities, PostgreSQL stores them uncompressed.
  const data = randomFillSync(new Uint8Array(SIZE));
  await store.profiles.saveCheckpoint("p", 5, 1_000_000, data.slice());
  const pool = new pg.Pool({ connectionString: url, max: 2 });

  /** The read before: base64 pieces, each checked to be of the same checkpoint (seq and written_at). */
  async function base64Pieces(): Promise<Uint8Array> {
    const [head] = (await pool.query(`SELECT seq, octet_length(data) AS size, written_at FROM profile_checkpoints WHERE profile = $1`, ["p"])).rows;
    const out = new Uint8Array(Number(head.size));
    for (let at = 0; at < out.length; at += PIECE) {
      const [row] = (await pool.query(`SELECT seq, written_at, encode(substring(data FROM $2 FOR $3), 'base64') AS piece FROM profile_checkpoints WHERE profile = $1`, ["p", at + 1, PIECE])).rows;
      if (row.seq !== head.seq || row.written_at !== head.written_at) throw new Error("changed while read");
      out.set(Buffer.from(row.piece, "base64"), at);
    }
    return out;
  }
  const variants: [string, () => Promise<Uint8Array | undefined>][] = [
    ["before: base64 pieces of 4 MiB", base64Pieces],
    ["now: binary COPY (store.profiles.checkpoint)", async () => (await store.profiles.checkpoint("p"))!.data],
    ["floor: the server alone (COPY to /dev/null)", async () => {
      await pool.query(`COPY (SELECT seq, n, data FROM profile_checkpoints WHERE profile = 'p') TO '/dev/null' (FORMAT binary)`);
      return undefined;
    }],
  ];
  const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  const stalls = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, read] of variants) {
      let longest = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 1);
      const t0 = performance.now();
      const got = await read();
      times.get(name)!.push(performance.now() - t0);
      clearInterval(timer);
      stalls.get(name)!.push(longest);
      if (got && !Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(data)) throw new Error(`${name}: the bytes read differ`);
    }
  }
  await pool.end();
  await store.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const before = median(times.get(variants[0]![0])!);
  lines.push(
    "## PostgreSQL checkpoint read (bench/checkpointRead.ts)",
    "",
    `A checkpoint of ${values.mb} MB (about what 1,000,000 examples make) read back from a real PostgreSQL ${"on a unix socket"}, median of ${ROUNDS} rounds, the ways interleaved. Command: \`npx tsx bench/checkpointRead.ts\`.`,
    "",
    "| read | median ms | range ms | × the read before | longest event-loop stall ms (median) |",
    "|---|---|---|---|---|",
    ...variants.map(([name]) => {
      const t = times.get(name)!;
      return `| ${name} | ${median(t).toFixed(0)} | ${Math.min(...t).toFixed(0)}–${Math.max(...t).toFixed(0)} | ${(median(t) / before).toFixed(2)} | ${median(stalls.get(name)!).toFixed(0)} |`;
    }),
    "",
    `Node ${process.version}, ${os.cpus().length} cores; load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(" / ")} (1/5/15 min — other work shares the cores, so the ratios of the same run are the comparable figures).`,
    "",
  );
  const out = process.env.CALIBKIT_BENCH_RESULTS ?? new URL("./results/", import.meta.url).pathname;
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "checkpointRead.md"), lines.join("\n"));
  process.stdout.write(lines.join("\n"));
} finally {
  server.destroy();
}
