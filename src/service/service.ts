// startService: the self-hosted evaluation service in this process. Opens the store (SQLite in the data
// directory, or a shared PostgreSQL), reads every profile from it, probes the configured backends, and
// serves HTTP. Several processes may share one store: the database does the locking.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { CalibkitError } from "../api/index.js";
import { Authenticator, isLoopbackHost } from "./auth.js";
import { BackendRegistry } from "./backends/backendRegistry.js";
import { parseConfig, storedKeys, type ServiceConfig, type ServiceConfigInput } from "./config.js";
import { HumanQueue } from "./humanQueue.js";
import { BASE_PATH, createHttpHandler } from "./http/server.js";
import { LabellingJobs } from "./labellingJobs.js";
import { importLegacyDataDir } from "./profiles/legacyImport.js";
import { ProfileStore } from "./profiles/profileStore.js";
import { capConnectionsPerClient } from "./http/connectionCap.js";
import { ServiceMetrics } from "./http/metrics.js";
import { AuthThrottle, LoadShedder, RateLimiter } from "./rateLimit.js";
import { buildRouter } from "./routes.js";
import { openStore } from "../store/index.js";

export interface StartServiceOptions {
  /** Address to bind. Default 127.0.0.1; any non-loopback address requires configured keys. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Directory of the embedded SQLite store (profiles, jobs, the human queue). Default `.calibkit/service`. */
  dataDir?: string;
  /** A `postgres://` URL: keep everything in that PostgreSQL instead, shared with other instances. */
  store?: string | undefined;
  /** A data folder of the format before the store, read into the store once before serving. */
  importDir?: string | undefined;
  /** The configuration (file format of docs/service.md), parsed or not. Default: no keys, no backends. */
  config?: ServiceConfigInput | ServiceConfig;
  /** Where log lines go. Default stderr. */
  log?: (line: string) => void;
  /** Fewest new examples for which a profile checkpoint is written (and at least an eighth of the last). Default 10,000. */
  checkpointEvery?: number | undefined;
}

export interface RunningService extends AsyncDisposable {
  /** `http://host:port`, the server root. */
  url: string;
  /** The versioned API root, `${url}/api/v1`. */
  baseUrl: string;
  close(): Promise<void>;
}

export class KeysRequiredError extends CalibkitError {
  override name = "KeysRequiredError";
  constructor(host: string) {
    super("KEYS_REQUIRED", `Refusing to serve on ${host}, a non-loopback address, without API keys: add "keys" to the --config file (see docs/service.md), or bind 127.0.0.1`);
  }
}

export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  const host = options.host ?? "127.0.0.1";
  const config = parseConfig(options.config ?? {});
  const log = options.log ?? ((line: string) => process.stderr.write(`calibkit serve: ${line}\n`));
  const keys = storedKeys(config);
  if (!isLoopbackHost(host) && keys.length === 0) throw new KeysRequiredError(host);
  const dataDir = resolve(options.dataDir ?? ".calibkit/service");
  const store = await openStore({ url: options.store, dataDir });
  const cleanup: (() => Promise<void> | void)[] = [() => store.close()];
  const undo = async () => {
    for (const fn of cleanup.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  };
  try {
    if (options.importDir) await importLegacyDataDir(store, resolve(options.importDir), log);
    const profiles = await ProfileStore.open(store, log, { checkpointEvery: options.checkpointEvery });
    cleanup.push(() => profiles.close());
    const humanQueue = await HumanQueue.open(store);
    cleanup.push(() => humanQueue.close());
    const backends = await BackendRegistry.open(config, log);
    cleanup.push(() => backends.dispose());
    const jobs = await LabellingJobs.open(store, { profiles, backends, humanQueue, log });
    cleanup.push(() => jobs.drain());
    const shedder = new LoadShedder({ maxInFlight: config.overload.max_in_flight, maxEventLoopLagMs: config.overload.max_event_loop_lag_ms });
    cleanup.push(() => shedder.dispose());
    const handler = createHttpHandler({
      router: buildRouter({ store, profiles, backends, humanQueue, jobs }),
      auth: new Authenticator(keys),
      rateLimiter: new RateLimiter({ requestsPerSecond: config.rate_limit.requests_per_second, burst: config.rate_limit.burst }),
      shedder,
      maxBodyBytes: config.max_body_bytes,
      authThrottle: new AuthThrottle(config.failed_auth_per_minute),
      metrics: new ServiceMetrics({ inFlight: () => shedder.current, profiles: () => profiles.list() }),
      metricsOpen: config.metrics_open,
      bodyTimeoutMs: config.body_timeout_ms,
      log,
    });
    const server: Server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 120_000 }, handler);
    capConnectionsPerClient(server, config.max_connections_per_client);
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", fail);
        ok();
      });
    });
    cleanup.push(() => new Promise<void>((ok) => {
      // Answer what is in flight, then drop kept-alive connections; after 5 s drop the rest too.
      const force = setTimeout(() => server.closeAllConnections(), 5_000);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        ok();
      });
      server.closeIdleConnections();
    }));
    const address = server.address() as AddressInfo;
    const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
    const url = `http://${shownHost}:${address.port}`;
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= undo());
    return { url, baseUrl: `${url}${BASE_PATH}`, close, [Symbol.asyncDispose]: close };
  } catch (err) {
    await undo();
    throw err;
  }
}
