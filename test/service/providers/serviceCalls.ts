// Calls a spawned `calibkit serve` the way the provider tests do, keeping every response body so a test can
// check that no credential ever appears in one.
import type { Spawned } from "../helpers.js";

export interface ServiceCalls {
  bodies: string[];
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  /** GET /backends: name → [access_level, status]. */
  levels(): Promise<Record<string, [string | null, string]>>;
  /** A set query "happy or sad?" on the `mood` profile, answered by backend `name` of `provider`. */
  mood(provider: string, name: string, extra?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** The `mood` profile on `backend`: 40 examples with client evidence. */
  createMood(backend: { provider: string; name: string }): Promise<void>;
}

export function serviceCalls(server: () => Spawned): ServiceCalls {
  const bodies: string[] = [];
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server().url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await res.text();
    bodies.push(text);
    return { status: res.status, body: JSON.parse(text) as any };
  };
  return {
    bodies,
    post,
    async levels() {
      const text = await (await fetch(`${server().url}/api/v1/backends`)).text();
      bodies.push(text);
      return Object.fromEntries((JSON.parse(text).backends as any[]).map((b) => [b.name, [b.access_level, b.status]]));
    },
    mood: (provider, name, extra = {}) => post("/evaluate", {
      context: "Once upon a time, there was a happy dog.", backend: { provider, name, ...extra },
      queries: { mood: { type: "set", instructions: "Is the story happy or sad?", options: { happy: "happy", sad: "sad" }, calibration_profile: "mood" } },
    }),
    async createMood(backend) {
      await post("/calibration-profiles", { name: "mood", backend, alpha: 0.2, strict_fingerprint: false });
      await post("/calibration-profiles/mood/examples", { examples: Array.from({ length: 40 }, (_, i) => {
        const p = 0.2 + (0.7 * i) / 40;
        return { context: `story ${i}`, label: p > 0.5 ? "happy" : "sad", metadata: { evidence: { option_probabilities: { happy: p, sad: 1 - p } } } };
      }) });
    },
  };
}
