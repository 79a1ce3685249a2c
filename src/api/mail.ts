// The Mail Sending Service's wire format (spec/mail-service.md).
import { z } from "zod";

/** A practical address check: one @, a dotted domain, no spaces or angle brackets, RFC 5321 length. */
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export const emailAddressSchema = z
  .string()
  .max(254)
  .refine((s) => ADDRESS.test(s) && !s.startsWith(".") && !s.includes("..") && s.indexOf("@") <= 64, {
    message: "must be an e-mail address such as name@example.org",
  });

export function isEmailAddress(value: string): boolean {
  return emailAddressSchema.safeParse(value).success;
}

export const attribValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const attribsSchema = z.record(z.string().min(1), attribValueSchema);

/** Most recipients one batch may carry (docs/mail.md). */
export const MAX_BATCH_RECIPIENTS = 10_000;

export const sendRequestSchema = z.strictObject({
  recipient: emailAddressSchema,
  addresser: emailAddressSchema.optional(),
  attribs: attribsSchema.optional(),
  /** Extension: the name of a configured message template (default: `default`). */
  template: z.string().min(1).optional(),
});
export type SendRequest = z.infer<typeof sendRequestSchema>;

export const batchSendRequestSchema = z.strictObject({
  recipients: z.array(emailAddressSchema).min(1).max(MAX_BATCH_RECIPIENTS),
  addresser: emailAddressSchema.optional(),
  attribs: attribsSchema.optional(),
  template: z.string().min(1).optional(),
});
export type BatchSendRequest = z.infer<typeof batchSendRequestSchema>;

const text = (fallback: string) => z.string().nullish().transform((v) => v ?? fallback);

/** Send result with the safe defaults the spec asks clients to apply to missing or null fields. */
const apiLogId = z.union([z.string(), z.number()]).nullish().transform((v) => (v === null || v === undefined ? null : String(v)));
const messageIds = z.array(z.string().nullable()).nullish().transform((v) => (v ?? []).filter((x): x is string => x !== null));

/** The fields a send result and a batch result share, with their safe defaults. */
const resultFields = {
  accepted: z.boolean().nullish().transform((v) => v ?? false),
  status: text(""),
  api_log_id: apiLogId,
  engine: text(""),
  injection_status: text("unknown"),
  delivery_status: text("unknown"),
  /** Extension (docs/mail.md): true when an Idempotency-Key matched an earlier send, which this answer is; nothing was sent now. */
  idempotent_replay: z.boolean().optional(),
};

export const sendResultSchema = z.looseObject({
  ...resultFields,
  message_id: z.string().nullish().transform((v) => v ?? null),
});
export type SendResult = z.output<typeof sendResultSchema>;

export const batchSendResultSchema = z.looseObject({
  ...resultFields,
  message_ids: messageIds,
});
export type BatchSendResult = z.output<typeof batchSendResultSchema>;

export const mailEnvelopeSchema = z.looseObject({
  success: z.boolean().nullish().transform((v) => v ?? false),
  /** Missing when a service omits it; the client reads a missing code as 0 only beside `success: true`. */
  code: z.number().nullish().transform((v) => v ?? undefined),
  msg: text(""),
  data: z.unknown().optional(),
});
export type MailEnvelope = z.output<typeof mailEnvelopeSchema>;

/** Mail failure codes of our self-hosted service (docs/mail.md); other services may use others. */
export const MAIL_CODES = {
  ok: 0,
  invalidRequest: 1001,
  invalidAddress: 1002,
  batchEmpty: 1003,
  batchTooLarge: 1004,
  unknownField: 1005,
  templateAttributeMissing: 1006,
  unknownTemplate: 1007,
  unauthorized: 1401,
  notFound: 1404,
  /** The same Idempotency-Key was sent before with a different request. */
  idempotencyConflict: 1409,
  bodyTooLarge: 1413,
  /** Content-Type was not application/json, or the method does not exist on the path. */
  unsupportedRequest: 1415,
  rateLimited: 1429,
  internal: 1500,
  /** The service is stopping and takes no new sends. */
  unavailable: 1503,
} as const;

/**
 * Extension (docs/api.md): GET /api/batch_mail/api/status/{api_log_id} answers the envelope with this in `data`,
 * the current lifecycle of an earlier send or batch send. Missing or null fields read as the same safe defaults.
 */
export const sendStatusSchema = z.looseObject({
  api_log_id: apiLogId,
  status: text(""),
  engine: text(""),
  injection_status: text("unknown"),
  delivery_status: text("unknown"),
  message_ids: messageIds,
  updated_at: z.string().nullish().transform((v) => v ?? null),
});
export type SendStatus = z.output<typeof sendStatusSchema>;

/** The name of a MAIL_CODES entry for a code, or undefined for a code of another service. */
export function mailCodeName(code: number): keyof typeof MAIL_CODES | undefined {
  return (Object.keys(MAIL_CODES) as (keyof typeof MAIL_CODES)[]).find((k) => MAIL_CODES[k] === code);
}
