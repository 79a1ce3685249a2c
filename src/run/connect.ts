// The service a run talks to: a remote one (`service`, its key from `apiKey` or $CALIBKIT_API_KEY), or the
// embedded self-hosted service on a free loopback port with a fresh temp data dir, removed afterwards.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EvaluationClient } from "../client/index.js";
import { startService, type ServiceConfigInput } from "../service/index.js";
import type { Reporter } from "./events.js";

export interface Connection extends AsyncDisposable {
  client: EvaluationClient;
  baseUrl: string;
  embedded: boolean;
  close(): Promise<void>;
}

export const API_KEY_ENV = "CALIBKIT_API_KEY";

/** `config`: the embedded service's configuration (its cascade backends); a remote service has its own. */
export async function connect(
  remote: { service?: string | undefined; apiKey?: string | undefined }, reporter: Reporter, config?: ServiceConfigInput,
): Promise<Connection> {
  if (remote.service !== undefined) {
    const apiKey = remote.apiKey ?? process.env[API_KEY_ENV];
    const client = new EvaluationClient({ baseUrl: remote.service, ...(apiKey ? { apiKey } : {}) });
    const close = async () => undefined;
    return { client, baseUrl: client.baseUrl, embedded: false, close, [Symbol.asyncDispose]: close };
  }
  const dataDir = await mkdtemp(join(tmpdir(), "calibkit-run-"));
  const forget = reporter.temporary(dataDir);
  const service = await startService({ host: "127.0.0.1", port: 0, dataDir, log: reporter.log, ...(config ? { config } : {}) }).catch(async (err: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    forget();
    throw err;
  });
  const client = new EvaluationClient({ baseUrl: service.baseUrl });
  const close = async () => {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
    forget();
  };
  return { client, baseUrl: service.baseUrl, embedded: true, close, [Symbol.asyncDispose]: close };
}
