// What the notifier mails: a stable key per alert and per audit (the cursor's key and, with the
// recipients, the Idempotency-Key), and a subject and text built only from the alert's own fields,
// so that a repeated send after a crash is the identical request the mail service dedupes.
import { createHash } from "node:crypto";
import type { Alert, AuditResult } from "../../api/index.js";

const hash = (parts: unknown[]) => createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);

export interface Notification {
  /** Cursor key: `alert:<hash>` or `audit:<hash>`. */
  key: string;
  /** One line for logs and the cursor file. */
  about: string;
  subject: string;
  text: string;
  /** Extra attributes for a configured template (docs/mail.md "Notifications"). */
  attribs: Record<string, string | number>;
}

/**
 * An alert is identified by its profile, monitor, type and detection time: n and the e-value may
 * still grow on the service while the monitor keeps counting, and must not make it a new alert.
 */
export function alertNotification(profile: string, monitorId: string, alert: Alert): Notification {
  const key = `alert:${hash([profile, monitorId, alert.type, alert.detected_at])}`;
  const lines = [
    alert.message,
    "",
    `profile:          ${profile}`,
    `monitor:          ${monitorId} (${alert.type})`,
    `severity:         ${alert.severity}`,
    `detected at:      ${alert.detected_at}`,
    `e-value:          ${alert.e_value} after n = ${alert.n}`,
    `target:           ${alert.target}`,
    `false alarm rate: ${alert.false_alarm_rate}`,
    "",
    `alert key: ${key}`,
  ];
  return {
    key,
    about: `alert of monitor ${monitorId} on ${profile} detected at ${alert.detected_at}`,
    subject: `[calibkit] ${alert.severity} ${alert.type} alert on profile ${profile}`,
    text: lines.join("\n") + "\n",
    attribs: {
      alert_key: key, profile, monitor: monitorId, type: alert.type, severity: alert.severity,
      detected_at: alert.detected_at, e_value: alert.e_value, n: alert.n, message: alert.message,
    },
  };
}

export function auditNotification(profile: string, audit: AuditResult): Notification {
  const key = `audit:${hash([profile, audit.date, audit.result, audit.realized_coverage, audit.sample])}`;
  const lines = [
    `The latest audit of profile ${profile} ${audit.result === "pass" ? "passed" : "FAILED"}.`,
    "",
    `result:            ${audit.result}`,
    `realized coverage: ${audit.realized_coverage} (CI ${audit.ci[0]} to ${audit.ci[1]})`,
    `target:            ${audit.target}`,
    `sample:            ${audit.sample}`,
    `date:              ${audit.date}`,
    "",
    `audit key: ${key}`,
  ];
  return {
    key,
    about: `audit of ${profile} on ${audit.date} (${audit.result})`,
    subject: `[calibkit] audit ${audit.result} for profile ${profile}`,
    text: lines.join("\n") + "\n",
    attribs: {
      audit_key: key, profile, result: audit.result, realized_coverage: audit.realized_coverage,
      target: audit.target, sample: audit.sample, date: audit.date,
    },
  };
}

/** The Idempotency-Key of one notification to one recipient list. */
export function idempotencyKeyOf(n: Notification, recipients: readonly string[]): string {
  return `calibkit-notify-${n.key.replace(":", "-")}-${hash([...recipients].sort()).slice(0, 12)}`;
}
