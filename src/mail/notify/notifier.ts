// One notifier pass: every alert of every monitor of a profile not yet mailed is mailed, in order of
// detection, and with `audit` the profile's latest audit too. Exactly once across kills: the cursor
// records the intent before the send and the result after, and a repeated send of a pending entry
// carries the same Idempotency-Key, which the mail service answers with the first send.
import type { Alert, AuditResult, Monitor } from "../../api/index.js";
import type { NotifyCursor } from "./cursor.js";
import { alertNotification, auditNotification, idempotencyKeyOf, type Notification } from "./messages.js";

/** What the notifier reads from the evaluation service (EvaluationClient fits). */
export interface AlertSource {
  listMonitors(profile: string): Promise<{ monitors: Monitor[] }>;
  listAlerts(profile: string, monitorId: string): Promise<{ alerts: Alert[] }>;
  getProfile(profile: string): Promise<{ last_audit?: AuditResult | null | undefined }>;
}

/**
 * How the notifier mails one notification to all recipients; resolves with the api_log_id, or with it and
 * whether the mail service answered with an earlier send of the same Idempotency-Key (nothing sent now).
 */
export type SendNotification = (
  recipients: readonly string[],
  message: { subject: string; text: string; attribs: Record<string, string | number> },
  idempotencyKey: string,
) => Promise<string | null | { apiLogId: string | null; replayed: boolean }>;

export interface NotifyOptions {
  source: AlertSource;
  send: SendNotification;
  cursor: NotifyCursor;
  profile: string;
  to: readonly string[];
  /** Also mail the latest audit result (`last_audit`). Default false. */
  audit?: boolean;
  log?: (line: string) => void;
}

export interface NotifyReport {
  /** `replayed`: an interrupted earlier run had sent it; the mail service recognised the resend and sent nothing. */
  mailed: { key: string; about: string; apiLogId: string | null; resumed: boolean; replayed: boolean }[];
  alreadyMailed: number;
  alerts: number;
  audit: "mailed" | "already mailed" | "none" | "not asked";
}

async function mailOnce(n: Notification, o: NotifyOptions, report: NotifyReport): Promise<boolean> {
  const entry = o.cursor.get(n.key);
  if (entry?.state === "sent") return false;
  const resumed = entry?.state === "pending";
  // Intent first: after a kill from here on, the next pass resends with the same Idempotency-Key.
  if (!resumed) await o.cursor.markPending(n.key, n.about);
  const sent = await o.send(o.to, { subject: n.subject, text: n.text, attribs: { subject: n.subject, text: n.text, ...n.attribs } }, idempotencyKeyOf(n, o.to));
  const { apiLogId, replayed } = typeof sent === "object" && sent !== null ? sent : { apiLogId: sent, replayed: false };
  await o.cursor.markSent(n.key, n.about, apiLogId);
  report.mailed.push({ key: n.key, about: n.about, apiLogId, resumed, replayed });
  const how = replayed ? "found mailed by an interrupted run (the mail service matched its Idempotency-Key; nothing sent now)"
    : `mailed${resumed ? " (resumed after an interrupted run)" : ""}`;
  o.log?.(`notify: ${n.about} ${how}${apiLogId ? `, api_log_id ${apiLogId}` : ""}`);
  return true;
}

export async function notifyOnce(o: NotifyOptions): Promise<NotifyReport> {
  const report: NotifyReport = { mailed: [], alreadyMailed: 0, alerts: 0, audit: o.audit ? "none" : "not asked" };
  const { monitors } = await o.source.listMonitors(o.profile);
  const found: { n: Notification; detected: number }[] = [];
  for (const m of monitors) {
    const { alerts } = await o.source.listAlerts(o.profile, m.id);
    for (const a of alerts) found.push({ n: alertNotification(o.profile, m.id, a), detected: Date.parse(a.detected_at) });
  }
  found.sort((a, b) => a.detected - b.detected);
  report.alerts = found.length;
  for (const { n } of found) {
    if (!(await mailOnce(n, o, report))) report.alreadyMailed++;
  }
  if (o.audit) {
    const profile = await o.source.getProfile(o.profile);
    if (profile.last_audit) {
      const sent = await mailOnce(auditNotification(o.profile, profile.last_audit), o, report);
      report.audit = sent && !report.mailed.at(-1)!.replayed ? "mailed" : "already mailed";
    }
  }
  return report;
}
