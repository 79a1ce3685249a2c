// A profile's checkpoint: what a start needs to serve the profile without reading its history — the counters,
// monitor and audit states, the idempotency answers remembered, and the calibration pools as columns of
// numbers — after a given event. Layout: "CKCP", u32 format, u32 header length, the header (JSON), zero
// padding to a multiple of 8, then the pools' typed arrays one after another (each at a multiple of 8).
import type { Profile } from "../../api/index.js";
import { currentPools, restorePools, type GrowingPool } from "../engine/pools.js";
import { ProfileState, type AuditEntry } from "./profileState.js";
import type { MonitorDefinition, MonitorState, ProfileMeta } from "./records.js";

const MAGIC = 0x50434b43; // "CKCP" little-endian
const FORMAT = 1;

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
}

const pad8 = (x: number) => (x + 7) & ~7;

/** The checkpoint of the state as it is now (the pools are first brought up to its last example). */
export function encodeCheckpoint(state: ProfileState): { seq: number; n: number; data: Uint8Array } {
  const pools = currentPools(state);
  let at = 0;
  const parts: { offset: number; bytes: Uint8Array }[] = [];
  const put = (array: Float64Array | Int32Array): number => {
    const offset = at;
    parts.push({ offset, bytes: new Uint8Array(array.buffer, array.byteOffset, array.byteLength) });
    at = pad8(at + array.byteLength);
    return offset;
  };
  const header: Header = {
    n: state.n,
    seq: state.seq,
    version: state.version,
    fingerprint: state.fingerprint,
    staleReason: state.staleReason,
    audits: state.audits,
    monitors: [...state.monitors],
    groupCounts: [...state.groupCounts],
    idempotency: [...state.idempotency],
    pools: pools.map((p) => ({
      names: [...p.names], levels: p.levels, grouped: p.grouped, booleanNames: p.booleanNames, scanned: p.scanned, n: p.n, estimated: p.estimated,
      groups: p.grouped ? p.groups.slice(0, p.n) : [],
      rows: put(p.rows.subarray(0, p.n * p.names.length)), labels: put(p.labels.subarray(0, p.n)), positions: put(p.positions.subarray(0, p.n)),
    })),
  };
  const json = Buffer.from(JSON.stringify(header));
  const start = pad8(12 + json.length);
  const data = new Uint8Array(start + at);
  const view = new DataView(data.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT, true);
  view.setUint32(8, json.length, true);
  data.set(json, 12);
  for (const part of parts) data.set(part.bytes, start + part.offset);
  return { seq: state.seq, n: state.n, data };
}

/** The state a checkpoint holds, its examples left in the store (ProfileState.startAt). */
export function decodeCheckpoint(meta: ProfileMeta, data: Uint8Array): ProfileState {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.byteLength < 12 || view.getUint32(0, true) !== MAGIC) throw new Error(`checkpoint of profile ${meta.name} is not one (bad magic)`);
  if (view.getUint32(4, true) !== FORMAT) throw new Error(`checkpoint of profile ${meta.name} has format ${view.getUint32(4, true)}, this calibkit reads ${FORMAT}`);
  const length = view.getUint32(8, true);
  const header = JSON.parse(Buffer.from(data.buffer, data.byteOffset + 12, length).toString("utf8")) as Header;
  const start = pad8(12 + length);
  // Copies (Uint8Array's slice: a Buffer's slice is a view), so that every array is aligned and owns its memory.
  const column = <T extends Float64Array | Int32Array>(Type: new (b: ArrayBuffer) => T, offset: number, count: number): T =>
    new Type(Uint8Array.prototype.slice.call(data, start + offset, start + offset + count * (Type === (Float64Array as unknown) ? 8 : 4)).buffer);
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
    rows: column(Float64Array, p.rows, p.n * p.names.length),
    labels: column(Int32Array, p.labels, p.n),
    positions: column(Int32Array, p.positions, p.n),
  }));
  restorePools(state, pools);
  return state;
}
