// `calibkit serve`: the self-hosted Calibrated Evaluation Service. The first stdout line is
// `listening http://HOST:PORT` (scripts and tests read the port from it); SIGTERM / SIGINT close it cleanly.
import { intOption, parseCommand, untilSignal, usage } from "../args.js";
import { formatKeyHash, loadConfigFile, startService, type ServiceConfig } from "../../service/index.js";

export const summary = "Serve the Calibrated Evaluation Service (/api/v1) from a local data directory";

const HELP = `usage: calibkit serve [--host 127.0.0.1] [--port 8787] [--data DIR | --store postgres://...] [--import OLD_DIR] [--config FILE]
       calibkit serve --hash-key KEY

  --host HOST      address to bind (default 127.0.0.1; a non-loopback address needs "keys" in --config)
  --port N         port (default 8787; 0 picks a free one, printed on the first stdout line)
  --data DIR       folder of the embedded SQLite store: profiles, jobs, the human queue (default .calibkit/service)
  --store URL      a postgres:// URL: keep everything in that PostgreSQL, shared by every instance given it
                   (default: the CALIBKIT_STORE environment variable, else the SQLite store in --data)
  --import OLD_DIR a data folder of calibkit before the store (profiles/*/wal.jsonl, jobs/, human-queue/):
                   read into the store once before serving; what the store already has is left as it is
  --config FILE    JSON configuration: keys, backends, connections, rate_limit, max_body_bytes, overload
                   (docs/service.md)
  --hash-key KEY   print the sha256 form of an API key for the config's "keys" ({"hash": ...}) and exit
`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("serve", argv, {
    host: { type: "string", default: "127.0.0.1" }, port: { type: "string", default: "8787" },
    data: { type: "string", default: ".calibkit/service" }, store: { type: "string" }, import: { type: "string" }, config: { type: "string" }, "hash-key": { type: "string" },
  }, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (values["hash-key"] !== undefined) {
    process.stdout.write(`${formatKeyHash(values["hash-key"])}\n`);
    return 0;
  }
  let port: number;
  let config: ServiceConfig | undefined;
  try {
    port = intOption("port", values.port, 8787, 0, 65535);
    if (values.config) config = await loadConfigFile(values.config);
  } catch (err) {
    return usage("serve", err instanceof Error ? err.message : String(err));
  }
  let service;
  try {
    service = await startService({ host: values.host, port, dataDir: values.data, store: values.store ?? (process.env.CALIBKIT_STORE || undefined), importDir: values.import, ...(config ? { config } : {}) });
  } catch (err) {
    process.stderr.write(`calibkit serve: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  process.stdout.write(`listening ${service.url}\n`);
  await untilSignal("calibkit serve");
  await service.close();
  return 0;
}
