// `calibkit mail-serve`: runs the self-hosted Mail Sending Service until SIGTERM or SIGINT.
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { keysFromEnv, loadMailConfigFile, mailConfigOf, redactSmtpUrl, startMailService, type MailConfigFile } from "../../mail/index.js";

export const summary = "Run the self-hosted mail service (send, batch_send, status) with a durable queue";

const HELP = `usage: calibkit mail-serve [options]

Serves POST /api/batch_mail/api/send and /batch_send (spec/mail-service.md) and
GET /api/batch_mail/api/status/{api_log_id}. Prints "listening http://HOST:PORT" first.

options:
  --host HOST        bind address (default 127.0.0.1; a non-loopback bind needs keys)
  --port N           port, 0 for a free one (default 8025)
  --data DIR         journal and outbox folder (default ./calibkit-mail)
  --engine E         file (default: .eml files in DIR/outbox) or smtp
  --smtp URL         relay for the smtp engine, smtp://user:pass@host:port or smtps://...
                     (or env CALIBKIT_MAIL_SMTP, which keeps the password off the command line)
  --outbox DIR       outbox of the file engine (default DIR/outbox)
  --config FILE      JSON config: keys, templates, default_addresser, delivery (docs/mail.md)
  -h, --help         this text

environment:
  CALIBKIT_MAIL_KEYS   comma-separated API keys, added to the config's keys
  CALIBKIT_MAIL_SMTP   relay URL when --smtp is not given
`;

export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        data: { type: "string" },
        engine: { type: "string" },
        smtp: { type: "string" },
        outbox: { type: "string" },
        config: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (err) {
    process.stderr.write(`calibkit mail-serve: ${err instanceof Error ? err.message : String(err)}\n${HELP}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const port = args.port === undefined ? 8025 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`calibkit mail-serve: --port must be an integer from 0 to 65535, not "${args.port}"\n`);
    return 2;
  }
  if (args.engine !== undefined && args.engine !== "file" && args.engine !== "smtp") {
    process.stderr.write(`calibkit mail-serve: --engine must be file or smtp, not "${args.engine}"\n`);
    return 2;
  }
  const file: MailConfigFile = args.config ? await loadMailConfigFile(resolve(args.config)) : {};
  const config = mailConfigOf(file);
  config.keys = [...config.keys, ...keysFromEnv()];
  config.engine = (args.engine as "file" | "smtp" | undefined) ?? (args.smtp ? "smtp" : config.engine);
  config.smtpUrl = args.smtp ?? process.env.CALIBKIT_MAIL_SMTP ?? config.smtpUrl;
  if (args.outbox) config.outbox = resolve(args.outbox);

  const service = await startMailService({
    host: args.host ?? "127.0.0.1",
    port,
    dataDir: resolve(args.data ?? "calibkit-mail"),
    config,
  });
  process.stdout.write(`listening ${service.url}\n`);
  const via = service.engine === "smtp" ? `smtp ${redactSmtpUrl(config.smtpUrl!)}` : "file";
  process.stderr.write(`mail: engine ${via}; ${config.keys.length + config.keySha256.length} key(s) configured\n`);

  await new Promise<void>((resolveStop) => {
    const stop = (signal: string) => {
      process.stderr.write(`mail: ${signal}, finishing in-flight deliveries\n`);
      resolveStop();
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  await service.close();
  return 0;
}
