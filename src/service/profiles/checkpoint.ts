// A profile's checkpoint: what a start needs to serve the profile without reading its history — the counters,
// monitor and audit states, the idempotency answers remembered, and the calibration pools as columns of
// numbers, and the calibrations built on them (engine/snapshots.ts) — after a given event. Layout: "CKCP", u32
// format, u32 header length, the header (JSON), zero padding to a multiple of 8, then the typed arrays one after
// another (each at a multiple of 8: columns.ts). Format 1 had no calibrations; it is still read.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Profile } from "../../api/index.js";
import { settleScoresSteps } from "../../conformal/index.js";
import { currentPools, restorePools, type GrowingPool } from "../engine/pools.js";
import { restoreSnapshots, takeSnapshots, type SnapshotEntry } from "../engine/snapshots.js";
import { ColumnReader, ColumnWriter } from "./columns.js";
import { ProfileState, type AuditEntry } from "./profileState.js";
import type { MonitorDefinition, MonitorState, ProfileMeta } from "./records.js";

const MAGIC = 0x50434b43; // "CKCP" little-endian
const FORMAT = 2;

interface PoolHeader {
  names: string[];
  levels: boolean;
  grouped: boolean;
  booleanNames: [string, string] | undefined;
  scanned: number;
  n: number;
  estimated: number;
  groups: string[];
  /** Byte offsets in the data part of rows (n × K float64), labels and positions (n int32 each). */
  rows: number;
  labels: number;
  positions: number;
}

interface Header {
  n: number;
  seq: number;
  version: number;
  fingerprint: string | undefined;
  staleReason: string | undefined;
  audits: AuditEntry[];
  monitors: [string, { definition: MonitorDefinition; state: MonitorState }][];
  groupCounts: [string, number][];
  idempotency: [string, { sha256: string; response: Profile }][];
  pools: PoolHeader[];
  /** Format 2: the calibrations by cache, each value encoded by ColumnWriter. */
  calibrations?: Record<string, SnapshotEntry[]>;
}

const pad8 = (x: number) => (x + 7) & ~7;

/** Bytes of columns copied, or idempotency answers written as JSON, between two turns of the event loop. */
const SLICE_BYTES = 1 << 20;
const SLICE_ANSWERS = 500;
/** Longest run of the steps that ready a calibration's scores between two turns. */
const SLICE_MS = 4;

/**
 * The calibrations that can be kept, encoded a value per turn (a set calibration's scores are merged when first
 * read, O(n)); one that cannot be kept (a value of another shape) is left out and rebuilt.
 */
async function encodeCalibrations(taken: Record<string, SnapshotEntry[]>, columns: ColumnWriter): Promise<Record<string, SnapshotEntry[]>> {
  const out: Record<string, SnapshotEntry[]> = {};
  for (const [name, entries] of Object.entries(taken)) {
    const kept: SnapshotEntry[] = (out[name] = []);
    for (const [key, covers, value] of entries) {
      // Scores merged or sorted when first read (a million take tens of ms) are readied a few ms per turn first.
      const steps = settleScoresSteps(value);
      for (let until = performance.now() + SLICE_MS; !steps.next().done; ) {
        if (performance.now() < until) continue;
        await nextTurn();
        until = performance.now() + SLICE_MS;
      }
      const mark = columns.size;
      try {
        kept.push([key, covers, columns.encode(value)]);
      } catch {
        columns.size = mark;
      }
      await nextTurn();
    }
  }
  return out;
}

/** JSON of the remembered idempotency answers, SLICE_ANSWERS per turn (10,000 of them are megabytes). */
async function idempotencyJson(answers: Header["idempotency"]): Promise<string> {
  const parts: string[] = [];
  for (let i = 0; i < answers.length; i += SLICE_ANSWERS) {
    const json = JSON.stringify(answers.slice(i, i + SLICE_ANSWERS));
    parts.push(json.slice(1, -1));
    await nextTurn();
  }
  return `[${parts.filter((p) => p !== "").join(",")}]`;
}

/**
 * The checkpoint of the state as it is now (the pools are first brought up to its last example). What it holds
 * is taken in the turn of the call; the encoding and copying (tens of megabytes at a million examples, a stall of
 * a fifth of a second done at once) follow in slices, the service answering requests between them. What was
 * taken never changes meanwhile: pool rows below their count are final (later rows are appended after them, or
 * into a new array), calibrated values are replaced rather than changed, and the small parts are copied here.
 */
export async function encodeCheckpoint(state: ProfileState): Promise<{ seq: number; n: number; data: Uint8Array }> {
  const pools = currentPools(state);
  const columns = new ColumnWriter();
  const header: Omit<Header, "idempotency" | "calibrations"> = {
    n: state.n,
    seq: state.seq,
    version: state.version,
    fingerprint: state.fingerprint,
    staleReason: state.staleReason,
    audits: [...state.audits],
    // A monitor's state is replaced on the entry a later batch moves: copy the entry.
    monitors: [...state.monitors].map(([id, { definition, state: monitorState }]) => [id, { definition, state: monitorState }]),
    groupCounts: [...state.groupCounts],
    pools: pools.map((p) => ({
      names: [...p.names], levels: p.levels, grouped: p.grouped, booleanNames: p.booleanNames, scanned: p.scanned, n: p.n, estimated: p.estimated,
      groups: p.grouped ? p.groups.slice(0, p.n) : [],
      rows: columns.put(p.rows.subarray(0, p.n * p.names.length)), labels: columns.put(p.labels.subarray(0, p.n)), positions: columns.put(p.positions.subarray(0, p.n)),
    })),
  };
  const answers = [...state.idempotency];
  const taken = takeSnapshots(state);
  const { seq, n } = state;
  await nextTurn();
  const calibrations = await encodeCalibrations(taken, columns);
  const head = JSON.stringify(header);
  const json = Buffer.from(`${head.slice(0, -1)},"idempotency":${await idempotencyJson(answers)},"calibrations":${JSON.stringify(calibrations)}}`);
  const start = pad8(12 + json.length);
  const data = new Uint8Array(start + columns.size);
  const view = new DataView(data.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT, true);
  view.setUint32(8, json.length, true);
  data.set(json, 12);
  await columns.writeInto(data, start, SLICE_BYTES, nextTurn);
  return { seq, n, data };
}

/** The state a checkpoint holds, its examples left in the store (ProfileState.startAt). */
export function decodeCheckpoint(meta: ProfileMeta, data: Uint8Array): ProfileState {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.byteLength < 12 || view.getUint32(0, true) !== MAGIC) throw new Error(`checkpoint of profile ${meta.name} is not one (bad magic)`);
  const format = view.getUint32(4, true);
  if (format !== FORMAT && format !== 1) throw new Error(`checkpoint of profile ${meta.name} has format ${format}, this calibkit reads 1 and ${FORMAT}`);
  const length = view.getUint32(8, true);
  const header = JSON.parse(Buffer.from(data.buffer, data.byteOffset + 12, length).toString("utf8")) as Header;
  const columns = new ColumnReader(data, pad8(12 + length));
  const state = new ProfileState(meta);
  state.startAt(header.n);
  state.seq = header.seq;
  state.version = header.version;
  state.fingerprint = header.fingerprint ?? undefined;
  state.staleReason = header.staleReason ?? undefined;
  state.audits.push(...header.audits);
  for (const [id, monitor] of header.monitors) state.monitors.set(id, monitor);
  for (const [group, count] of header.groupCounts) state.groupCounts.set(group, count);
  for (const [key, answer] of header.idempotency) state.idempotency.set(key, answer);
  const pools: GrowingPool[] = header.pools.map((p) => ({
    names: p.names, levels: p.levels, grouped: p.grouped, booleanNames: p.booleanNames ?? undefined, scanned: p.scanned, n: p.n, estimated: p.estimated,
    groups: p.groups,
    groupCounts: p.groups.reduce((m, g) => m.set(g, (m.get(g) ?? 0) + 1), new Map<string, number>()),
    rows: columns.column<Float64Array>("f64", p.rows, p.n * p.names.length),
    labels: columns.column<Int32Array>("i32", p.labels, p.n),
    positions: columns.column<Int32Array>("i32", p.positions, p.n),
  }));
  restorePools(state, pools);
  const calibrations: Record<string, SnapshotEntry[]> = {};
  for (const [name, entries] of Object.entries(header.calibrations ?? {})) {
    calibrations[name] = entries.map(([key, covers, value]) => [key, covers, columns.decode(value)]);
  }
  restoreSnapshots(state, calibrations);
  return state;
}
