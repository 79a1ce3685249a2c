// Starts the self-hosted mail service: engine, durable queue and HTTP server, disposed in reverse.
import { mkdir } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { isLoopbackHost, KeyRing } from "./auth.js";
import { mailConfigOf, type MailServiceConfig } from "./config.js";
import { createFileEngine } from "./engines/fileEngine.js";
import { createSmtpEngine } from "./engines/smtpEngine.js";
import type { DeliveryEngine } from "./engines/engine.js";
import { openStore } from "../store/index.js";
import { takeDeliveryLease } from "./deliveryLease.js";
import { MailConfigError } from "./errors.js";
import { createMailHttpServer } from "./http.js";
import { importLegacyJournal } from "./legacyJournal.js";
import { MailMetrics } from "./metrics.js";
import { MailQueue } from "./queue.js";
import { TemplateSet } from "./templates.js";

export interface MailServiceOptions {
  /** Bind address. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Folder of the embedded SQLite store (and the file engine's outbox). Required. */
  dataDir: string;
  /** A `postgres://` URL: keep the queue in that PostgreSQL instead of the data folder. */
  store?: string | undefined;
  /** A data folder of the mail service before the store: its journal is read into the store before serving. */
  importDir?: string | undefined;
  /** Configuration; see mailConfigOf for the defaults. */
  config?: Partial<MailServiceConfig>;
  /** Where operational lines go. Default stderr. */
  log?: (line: string) => void;
}

export interface MailService {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  readonly engine: "file" | "smtp";
  /** Stops taking requests, lets in-flight deliveries finish and be journaled. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

async function createEngine(config: MailServiceConfig, dataDir: string): Promise<DeliveryEngine> {
  if (config.engine === "smtp") {
    if (!config.smtpUrl) throw new MailConfigError("The smtp engine needs a relay URL (--smtp, config `smtp` or CALIBKIT_MAIL_SMTP)", { field: "smtp" });
    if (!/^smtps?:\/\//.test(config.smtpUrl)) throw new MailConfigError("The SMTP URL must start with smtp:// or smtps://", { field: "smtp" });
    return createSmtpEngine({ url: config.smtpUrl, maxConnections: config.concurrency ?? 5, timeoutMs: config.timeoutMs });
  }
  return createFileEngine({ outbox: config.outbox ?? join(dataDir, "outbox"), concurrency: config.concurrency ?? 4 });
}

export async function startMailService(options: MailServiceOptions): Promise<MailService> {
  const config: MailServiceConfig = { ...mailConfigOf(), ...options.config };
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const keys = new KeyRing(config.keys, config.keySha256);
  if (keys.size === 0 && !isLoopbackHost(host)) {
    throw new MailConfigError(`Refusing to listen on ${host} without API keys: configure \`keys\` or CALIBKIT_MAIL_KEYS, or bind a loopback address`);
  }
  const templates = new TemplateSet(config.templates);
  await mkdir(options.dataDir, { recursive: true });
  const store = await openStore({ url: options.store, dataDir: options.dataDir });
  let lease: { release(): Promise<void> };
  try {
    lease = await takeDeliveryLease(store, log);
  } catch (err) {
    await store.close();
    throw err;
  }
  const lock = { release: async () => {
    await lease.release();
    await store.close();
  } };
  let engine: DeliveryEngine;
  try {
    // Under the delivery lease, so no other deliverer on the store sees the sends before their states.
    if (options.importDir) await importLegacyJournal(store, resolve(options.importDir), log);
    engine = await createEngine(config, options.dataDir);
  } catch (err) {
    await lock.release();
    throw err;
  }
  let queue: MailQueue;
  try {
    queue = await MailQueue.open({
      store,
      engine,
      templates,
      defaultAddresser: config.defaultAddresser,
      messageIdDomain: config.messageIdDomain,
      retry: config.retry,
      log,
    });
  } catch (err) {
    await engine.dispose();
    await lock.release();
    throw err;
  }
  const metrics = new MailMetrics(() => queue);
  const server = createMailHttpServer({ queue, keys: keys.size > 0 ? keys : undefined, maxBodyBytes: config.maxBodyBytes, metrics, log });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (err) {
    await queue.close();
    await engine.dispose();
    await lock.release();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await queue.close();
      await engine.dispose();
      await lock.release();
      server.closeAllConnections();
      await stopped;
    })());
  return { url: `http://${shownHost}:${address.port}`, engine: engine.name, close, [Symbol.asyncDispose]: close };
}
