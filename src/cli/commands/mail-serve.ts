// `calibkit mail-serve`: runs the self-hosted Mail Sending Service until SIGTERM or SIGINT.
import { intOption, parseCommand, untilSignal, usage } from "../args.js";
import { resolve } from "node:path";
import { keysFromEnv, loadMailConfigFile, mailConfigOf, redactSmtpUrl, startMailService, type MailConfigFile } from "../../mail/index.js";

export const summary = "Run the self-hosted mail service (send, batch_send, status) with a durable queue";

const HELP = `usage: calibkit mail-serve [options]

Serves POST /api/batch_mail/api/send and /batch_send (spec/mail-service.md) and
GET /api/batch_mail/api/status/{api_log_id}. Prints "listening http://HOST:PORT" first.

options:
  --host HOST        bind address (default 127.0.0.1; a non-loopback bind needs keys)
  --port N           port, 0 for a free one (default 8025)
  --data DIR         folder of the embedded SQLite store and the outbox (default ./calibkit-mail)
  --store URL        a postgres:// URL: keep the queue in that PostgreSQL (default env CALIBKIT_STORE)
  --engine E         file (default: .eml files in DIR/outbox) or smtp
  --smtp URL         relay for the smtp engine, smtp://user:pass@host:port or smtps://...
                     (or env CALIBKIT_MAIL_SMTP, which keeps the password off the command line)
  --outbox DIR       outbox of the file engine (default DIR/outbox)
  --import OLD_DIR   the data folder of the mail service before the store (its journal.jsonl): read its
                     sends, their delivery states and Idempotency-Keys into the store once before
                     serving; undelivered messages are then delivered (docs/mail.md)
  --config FILE      JSON config: keys, templates, default_addresser, delivery (docs/mail.md)
  -h, --help         this text

environment:
  CALIBKIT_MAIL_KEYS   comma-separated API keys, added to the config's keys
  CALIBKIT_MAIL_SMTP   relay URL when --smtp is not given
`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("mail-serve", argv, {
    host: { type: "string" }, port: { type: "string" }, data: { type: "string" }, engine: { type: "string" },
    smtp: { type: "string" }, outbox: { type: "string" }, config: { type: "string" }, store: { type: "string" }, import: { type: "string" },
  }, HELP);
  if (typeof parsed === "number") return parsed;
  const args = parsed.values;
  let port: number;
  try {
    port = intOption("port", args.port, 8025, 0, 65535);
  } catch (err) {
    return usage("mail-serve", err instanceof Error ? err.message : String(err));
  }
  if (args.engine !== undefined && args.engine !== "file" && args.engine !== "smtp") {
    return usage("mail-serve", `--engine must be file or smtp, not "${args.engine}"`);
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
    store: args.store ?? (process.env.CALIBKIT_STORE || undefined),
    importDir: args.import,
    config,
  });
  process.stdout.write(`listening ${service.url}\n`);
  const via = service.engine === "smtp" ? `smtp ${redactSmtpUrl(config.smtpUrl!)}` : "file";
  process.stderr.write(`mail: engine ${via}; ${config.keys.length + config.keySha256.length} key(s) configured\n`);

  await untilSignal("mail", "finishing in-flight deliveries");
  await service.close();
  return 0;
}
