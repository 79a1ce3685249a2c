// `calibkit serve`: the self-hosted Calibrated Evaluation Service. The first stdout line is
// `listening http://HOST:PORT` (scripts and tests read the port from it); SIGTERM / SIGINT close it cleanly.
import { parseArgs } from "node:util";
import { formatKeyHash, loadConfigFile, startService, type ServiceConfig } from "../../service/index.js";

export const summary = "Serve the Calibrated Evaluation Service (/api/v1) from a local data directory";

const HELP = `usage: calibkit serve [--host 127.0.0.1] [--port 8787] [--data DIR] [--config FILE]
       calibkit serve --hash-key KEY

  --host HOST      address to bind (default 127.0.0.1; a non-loopback address needs "keys" in --config)
  --port N         port (default 8787; 0 picks a free one, printed on the first stdout line)
  --data DIR       data directory for profiles, jobs and the human queue (default .calibkit/service)
  --config FILE    JSON configuration: keys, backends, connections, rate_limit, max_body_bytes, overload
                   (docs/service.md)
  --hash-key KEY   print the sha256 form of an API key for the config's "keys" ({"hash": ...}) and exit
`;

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: {
        host: { type: "string", default: "127.0.0.1" }, port: { type: "string", default: "8787" },
        data: { type: "string", default: ".calibkit/service" }, config: { type: "string" },
        "hash-key": { type: "string" }, help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    process.stderr.write(`calibkit serve: ${err instanceof Error ? err.message : String(err)}\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values["hash-key"] !== undefined) {
    process.stdout.write(`${formatKeyHash(values["hash-key"])}\n`);
    return 0;
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) {
    process.stderr.write(`calibkit serve: --port must be an integer from 0 to 65535, not "${values.port}"\n`);
    return 2;
  }
  let config: ServiceConfig | undefined;
  try {
    if (values.config) config = await loadConfigFile(values.config);
  } catch (err) {
    process.stderr.write(`calibkit serve: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  let service;
  try {
    service = await startService({ host: values.host, port, dataDir: values.data, ...(config ? { config } : {}) });
  } catch (err) {
    process.stderr.write(`calibkit serve: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  process.stdout.write(`listening ${service.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`calibkit serve: ${signal}, closing\n`);
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      resolve();
    };
    const onTerm = () => stop("SIGTERM");
    const onInt = () => stop("SIGINT");
    process.on("SIGTERM", onTerm);
    process.on("SIGINT", onInt);
  });
  await service.close();
  return 0;
}
