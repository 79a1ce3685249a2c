// `calibkit notify`: mails each new alert of a profile's monitors once (and with --audit its latest
// audit), through a mail service; a durable cursor file makes it exactly-once across restarts.
import { parseCommand, usage } from "../args.js";
import { resolve } from "node:path";
import { isEmailAddress } from "../../api/index.js";
import { EvaluationClient, MailClient } from "../../client/index.js";
import { NotifyCursor, notifyOnce, type SendNotification } from "../../mail/index.js";

export const summary = "Mail each new monitor alert of a profile once (and --audit its latest audit)";

const HELP = `usage: calibkit notify --service URL --profile NAME --to ADDR[,ADDR...] --mail URL [options]

Reads every monitor of the profile and its alerts from the evaluation service and mails each
alert not mailed before, exactly once: a state file records what was mailed, and a repeated
send after a crash carries the same Idempotency-Key, which calibkit mail-serve deduplicates.

options:
  --service URL      evaluation service root, e.g. http://127.0.0.1:8787/api/v1
  --service-key K    its API key (or env CALIBKIT_API_KEY; none needed on loopback)
  --profile NAME     calibration profile whose monitors are read
  --to ADDRS         comma-separated recipients
  --mail URL         mail service address, with or without a trailing /api
  --mail-key K       X-API-Key of the mail service (or env CALIBKIT_MAIL_KEY)
  --from ADDR        sender address (default: the mail service's)
  --state FILE       cursor file (default ./.calibkit/notify-<profile>.json)
  --audit            also mail the profile's latest audit result, once per audit
  -h, --help         this text
`;

const fail = (message: string): number => usage("notify", message);

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("notify", argv, {
    service: { type: "string" }, "service-key": { type: "string" }, profile: { type: "string" }, to: { type: "string" },
    mail: { type: "string" }, "mail-key": { type: "string" }, from: { type: "string" }, state: { type: "string" },
    audit: { type: "boolean" },
  }, HELP);
  if (typeof parsed === "number") return parsed;
  const args = parsed.values;
  for (const required of ["service", "profile", "to", "mail"] as const) {
    if (!args[required]) return fail(`--${required} is required (see --help)`);
  }
  const to = args.to!.split(",").map((a) => a.trim()).filter((a) => a !== "");
  const bad = to.filter((a) => !isEmailAddress(a));
  if (to.length === 0 || bad.length > 0) return fail(`--to must list e-mail addresses${bad.length ? `; not one: ${bad.join(", ")}` : ""}`);
  if (args.from !== undefined && !isEmailAddress(args.from)) return fail(`--from must be an e-mail address, not "${args.from}"`);

  const profile = args.profile!;
  const source = new EvaluationClient({ baseUrl: args.service!, apiKey: args["service-key"] ?? process.env.CALIBKIT_API_KEY });
  const mail = new MailClient({ baseUrl: args.mail!, apiKey: args["mail-key"] ?? process.env.CALIBKIT_MAIL_KEY });
  const send: SendNotification = async (recipients, message, idempotencyKey) => {
    const request = { recipients: [...recipients], attribs: message.attribs, ...(args.from ? { addresser: args.from } : {}) };
    const result = await mail.batchSend(request, { idempotencyKey });
    return { apiLogId: result.api_log_id, replayed: result.idempotent_replay === true };
  };
  const statePath = resolve(args.state ?? `.calibkit/notify-${profile.replace(/[^A-Za-z0-9._-]/g, "_")}.json`);
  const cursor = await NotifyCursor.load(statePath);
  const report = await notifyOnce({
    source,
    send,
    cursor,
    profile,
    to,
    audit: args.audit ?? false,
    log: (line) => process.stdout.write(line + "\n"),
  });
  const audit = report.audit === "not asked" ? "" : `; audit: ${report.audit}`;
  const alerts = report.mailed.filter((m) => m.key.startsWith("alert:"));
  const resent = alerts.filter((m) => m.replayed).length;
  // A resend the mail service matched to an interrupted run's send was not mailed now: said apart.
  const replayed = resent > 0 ? `, ${resent} mailed by an interrupted earlier run (nothing sent now)` : "";
  process.stdout.write(
    `notify: ${report.alerts} alert(s) on ${profile}, ${alerts.filter((m) => !m.replayed).length} mailed now, ${report.alreadyMailed} mailed before${replayed}${audit}\n`,
  );
  return 0;
}
