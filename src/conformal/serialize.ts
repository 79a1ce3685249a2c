// Calibrated objects as JSON and back. They hold typed arrays, Maps and ±∞, which JSON.stringify would
// lose, so these are tagged: {"$f64": [...]}, {"$i32": [...]}, {"$map": [[k, v], ...]}, {"$num": "Infinity"}.

import { ConformalError } from "./errors.js";

const FORMAT = "calibkit.conformal/1";

function encode(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : { $num: String(value) };
  if (value instanceof Float64Array) return { $f64: Array.from(value, (x) => encode(x)) };
  if (value instanceof Int32Array) return { $i32: Array.from(value) };
  if (value instanceof Map) return { $map: [...value].map(([k, v]) => [k, encode(v)]) };
  if (Array.isArray(value)) return value.map(encode);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = encode(v);
    return out;
  }
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if ("$num" in o) return Number(o.$num);
    if ("$f64" in o) return Float64Array.from((o.$f64 as unknown[]).map((x) => decode(x) as number));
    if ("$i32" in o) return Int32Array.from(o.$i32 as number[]);
    if ("$map" in o) return new Map((o.$map as [string, unknown][]).map(([k, v]) => [k, decode(v)]));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = decode(v);
    return Object.freeze(out);
  }
  return value;
}

/** A JSON string that calibratedFromJSON turns back into an equal calibrated object. */
export function calibratedToJSON(calibrated: { kind: string }): string {
  return JSON.stringify({ format: FORMAT, calibrated: encode(calibrated) });
}

export function calibratedFromJSON<T extends { kind: string }>(json: string): T {
  let parsed: { format?: unknown; calibrated?: unknown };
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch (cause) {
    throw new ConformalError("INVALID_ARGUMENT", "not a serialised calibrated object (invalid JSON)", { cause });
  }
  if (parsed.format !== FORMAT) throw new ConformalError("INVALID_ARGUMENT", `unknown calibrated-object format ${String(parsed.format)}`, { field: "format" });
  return decode(parsed.calibrated) as T;
}
