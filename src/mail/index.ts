// The self-hosted Mail Sending Service (spec/mail-service.md) and the alert and audit notifier.
export { startMailService, type MailService, type MailServiceOptions } from "./service.js";
export { mailConfigOf, loadMailConfigFile, keysFromEnv, DEFAULT_MAX_BODY_BYTES, type MailServiceConfig, type MailConfigFile } from "./config.js";
export { MailServiceError, MailConfigError, JournalCorruptError, MAIL_SERVICE_CODES } from "./errors.js";
export { StoreInUseError } from "./deliveryLease.js";
export { DELIVERY_STATES, type DeliveryState, type InjectionState } from "./lifecycle.js";
export { TemplateSet, DEFAULT_TEMPLATE, type TemplateSource } from "./templates.js";
export { PREFIX as MAIL_API_PREFIX } from "./http.js";
export { redactSmtpUrl } from "./engines/smtpEngine.js";
export { NotifyCursor, CursorError, type CursorEntry } from "./notify/cursor.js";
export { notifyOnce, type AlertSource, type SendNotification, type NotifyOptions, type NotifyReport } from "./notify/notifier.js";
export { alertNotification, auditNotification, idempotencyKeyOf, type Notification } from "./notify/messages.js";
