// The backends of the configuration file, each opened with the OpenAI-compatible adapter at start-up, which
// probes the access level it reaches. A backend down at start-up is listed as unreachable and probed again
// when a request needs it. Requests name a backend by `name`, or by provider + model (+ base_url).
import { levelOfHint, levelRank, PROVIDER_FIELD_TYPES, type AccessLevel, type ServiceBackendInfo } from "../../api/index.js";
import type { ModelAdapter } from "../../adapters/index.js";
import { connectionCredential, type BackendConfig, type ServiceConfig } from "../config.js";
import { backendFailed, invalidField } from "../errors.js";
import { openBackendAdapter } from "./openBackend.js";

const PROBE_WAIT_MS = 5_000;

export interface ConfiguredBackend {
  config: BackendConfig;
  adapter: ModelAdapter | undefined;
  level: AccessLevel | null;
  error: string | undefined;
}

export class BackendRegistry {
  private readonly byName = new Map<string, ConfiguredBackend>();
  private readonly opening = new Map<string, Promise<ModelAdapter>>();

  private constructor(private readonly config: ServiceConfig, private readonly log: (line: string) => void) {}

  /** Opens (probes) every configured backend in parallel; failures are recorded, not thrown. */
  static async open(config: ServiceConfig, log: (line: string) => void): Promise<BackendRegistry> {
    const registry = new BackendRegistry(config, log);
    for (const c of config.backends) registry.byName.set(c.name, { config: c, adapter: undefined, level: c.access_level ?? null, error: undefined });
    // Start-up waits at most PROBE_WAIT_MS: a backend still probing after that is listed unreachable until its
    // probe finishes (it carries on in the background), so a dead address never delays `listening`.
    await registry.probeUnreached();
    return registry;
  }

  /** Probes every backend not yet reached (or awaits its probe under way), for at most PROBE_WAIT_MS. */
  private async probeUnreached(): Promise<void> {
    const unreached = [...this.byName.values()].filter((b) => !b.adapter);
    if (unreached.length === 0) return;
    const probes = Promise.all(unreached.map((b) => this.adapterOf(b).catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([probes, new Promise((ok) => { timer = setTimeout(ok, PROBE_WAIT_MS); })]);
    clearTimeout(timer);
  }

  /** The configured backends with the level each reaches; one unreachable so far is probed again first. */
  async list(): Promise<ServiceBackendInfo[]> {
    await this.probeUnreached();
    return [...this.byName.values()].map((b) => ({
      name: b.config.name,
      provider: b.config.provider,
      model: b.adapter?.model ?? b.config.model ?? null,
      base_url: b.config.base_url,
      access_level: b.level,
      status: b.adapter ? "ok" : "unreachable",
      ...(b.adapter ? { fingerprint: b.adapter.fingerprint } : {}),
      cost_cents_per_call: b.config.cost_cents_per_call,
      cost_cents_per_1k_tokens: b.config.cost_cents_per_1k_tokens,
      ...(b.error ? { error: b.error } : {}),
    }));
  }

  /** The configured backend a request's backend object (or name) means; 422 at `path` when none. */
  resolve(backend: unknown, path: string): ConfiguredBackend {
    const b = (typeof backend === "string" ? { name: backend } : backend ?? {}) as { name?: string; provider?: string; model?: string; base_url?: string } & Record<string, unknown>;
    let found: ConfiguredBackend | undefined;
    if (b.name !== undefined) found = this.byName.get(b.name);
    else {
      found = [...this.byName.values()].find(
        (c) => c.config.provider === b.provider && (b.model === undefined || (c.config.model ?? c.adapter?.model) === b.model) && (b.base_url === undefined || c.config.base_url === b.base_url) &&
          // A provider-specific field the request gives picks the backend configured with it, never one without.
          Object.keys(PROVIDER_FIELD_TYPES).every((f) => b[f] === undefined || (c.config as Record<string, unknown>)[f] === b[f]),
      );
    }
    if (!found) {
      const configured = [...this.byName.keys()];
      const what = b.name !== undefined ? `"${b.name}"` : `${b.provider ?? "?"}${b.model ? ` model "${b.model}"` : ""}`;
      throw invalidField(path, `\`${path}\` names backend ${what}, which this service does not configure (configured: ${configured.length ? configured.join(", ") : "none"}; see --config)`);
    }
    return found;
  }

  /** The backend's adapter, probing again if it was unreachable; 502 when it still cannot be reached. */
  async adapterOf(b: ConfiguredBackend): Promise<ModelAdapter> {
    if (b.adapter) return b.adapter;
    let pending = this.opening.get(b.config.name);
    if (!pending) {
      pending = (async () => {
        const credential = await connectionCredential(this.config, b.config.connection);
        return openBackendAdapter(b.config, credential, this.config.backend_timeout_ms);
      })();
      this.opening.set(b.config.name, pending);
    }
    try {
      const adapter = await pending;
      b.adapter = adapter;
      b.level = b.config.access_level ?? adapter.accessLevel;
      b.error = undefined;
      return adapter;
    } catch (err) {
      b.error = err instanceof Error ? err.message : String(err);
      this.log(`backend ${b.config.name}: unreachable (${b.error})`);
      throw backendFailed(`Backend "${b.config.name}" is unreachable: ${b.error}`, err);
    } finally {
      this.opening.delete(b.config.name);
    }
  }

  /** 502 when a request's access_hint asks for more than the backend reaches (DESIGN.md: never a silent downgrade). */
  checkHint(b: ConfiguredBackend, hint: string | undefined): void {
    const wanted = hint ? levelOfHint(hint as never) : undefined;
    if (wanted && b.level && levelRank(wanted) > levelRank(b.level)) {
      throw backendFailed(`Backend "${b.config.name}" reaches ${b.level}, below the ${wanted} that access_hint "${hint}" requires`);
    }
  }

  async dispose(): Promise<void> {
    // A probe still under way would open an adapter after we closed the others: let it finish first.
    await Promise.allSettled([...this.opening.values()]);
    await Promise.all([...this.byName.values()].map((b) => b.adapter?.dispose().catch(() => undefined)));
  }
}
