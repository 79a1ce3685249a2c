// Field-by-field comparison of one service answer with the local engine's answer: numbers within an
// absolute tolerance, everything else exactly, each difference named by its dotted field path.

export interface FieldDifference {
  field: string;
  service: unknown;
  local: unknown;
}

/** Absolute tolerance for numbers: the two sides run the same code, so only float noise may differ. */
export const CROSS_CHECK_TOLERANCE = 1e-9;

export interface Comparison {
  /** Leaf fields compared. */
  fields: number;
  differences: FieldDifference[];
}

/**
 * Compares every field the local answer has (the service may add fields the engine cannot know, such as
 * evidence_level, which are not compared). Arrays compare element-wise and by length.
 */
export function compareFields(service: unknown, local: unknown, path: string, tolerance = CROSS_CHECK_TOLERANCE, out: Comparison = { fields: 0, differences: [] }): Comparison {
  if (typeof local === "number") {
    out.fields++;
    const ok = typeof service === "number" && (service === local || Math.abs(service - local) <= tolerance || (Number.isNaN(service) && Number.isNaN(local)));
    if (!ok) out.differences.push({ field: path, service, local });
    return out;
  }
  if (Array.isArray(local)) {
    if (!Array.isArray(service) || service.length !== local.length) {
      out.fields++;
      out.differences.push({ field: path, service, local });
      return out;
    }
    local.forEach((v, i) => compareFields(service[i], v, `${path}[${i}]`, tolerance, out));
    return out;
  }
  if (local !== null && typeof local === "object") {
    if (service === null || typeof service !== "object" || Array.isArray(service)) {
      out.fields++;
      out.differences.push({ field: path, service, local });
      return out;
    }
    const s = service as Record<string, unknown>;
    for (const [key, v] of Object.entries(local)) {
      if (v === undefined) continue;
      compareFields(s[key], v, path ? `${path}.${key}` : key, tolerance, out);
    }
    return out;
  }
  out.fields++;
  if (service !== local) out.differences.push({ field: path, service, local });
  return out;
}
