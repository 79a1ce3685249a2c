// A model adapter that counts its inference calls, so a run can say how many it made (#13: a repeat run
// served from the evidence cache makes none). Rendering and token counting are no inference and not counted.
import type { ModelAdapter } from "./types.js";

const INFERENCE = new Set<PropertyKey>(["firstTokenLogProbs", "scoreContinuations", "sample", "generate", "hiddenState"]);

export interface CountingAdapter {
  adapter: ModelAdapter;
  /** Inference calls made through `adapter` so far. */
  calls(): number;
}

export function countingAdapter(inner: ModelAdapter): CountingAdapter {
  let calls = 0;
  const adapter = new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      if (!INFERENCE.has(prop)) return (value as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { adapter, calls: () => calls };
}
