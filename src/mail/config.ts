// The mail service's configuration: a JSON file (--config), the flags of `calibkit mail-serve`, and
// the environment, merged in that order of increasing precedence. Checked once, at start.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { emailAddressSchema, fieldIssues } from "../api/index.js";
import { MailConfigError } from "./errors.js";
import type { TemplateSource } from "./templates.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./worker.js";

const templateSchema = z.strictObject({ subject: z.string(), text: z.string(), html: z.string().optional() });

export const mailConfigFileSchema = z.strictObject({
  keys: z.array(z.string().min(8)).optional(),
  key_sha256: z.array(z.string().regex(/^[0-9a-f]{64}$/)).optional(),
  templates: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/), templateSchema).optional(),
  default_addresser: z.string().min(3).optional(),
  engine: z.enum(["file", "smtp"]).optional(),
  smtp: z.string().optional(),
  outbox: z.string().optional(),
  message_id_domain: z.string().regex(/^[A-Za-z0-9.-]+$/).optional(),
  max_body_bytes: z.number().int().min(1024).optional(),
  delivery: z
    .strictObject({
      concurrency: z.number().int().min(1).max(64).optional(),
      max_attempts: z.number().int().min(1).optional(),
      backoff_base_ms: z.number().int().min(1).optional(),
      backoff_max_ms: z.number().int().min(1).optional(),
      timeout_ms: z.number().int().min(100).optional(),
    })
    .optional(),
});
export type MailConfigFile = z.infer<typeof mailConfigFileSchema>;

/** Everything startMailService needs, defaults applied. */
export interface MailServiceConfig {
  /** API keys in clear; hashed at start. */
  keys: string[];
  /** API keys already hashed (sha256, hex). */
  keySha256: string[];
  templates: Record<string, TemplateSource>;
  /** Sender when a request has no `addresser`. Default `calibkit@localhost`. */
  defaultAddresser: string;
  /** Delivery engine. Default `file`. */
  engine: "file" | "smtp";
  /** Relay URL for the smtp engine. */
  smtpUrl: string | undefined;
  /** Outbox folder of the file engine. Default `<data>/outbox`. */
  outbox: string | undefined;
  /** Right-hand side of message ids. Default `calibkit.local`. */
  messageIdDomain: string;
  /** Largest request body in bytes. Default 4 MiB (a full batch of 10,000 long addresses fits). */
  maxBodyBytes: number;
  /** Messages handed to the engine at once. Default 5 (smtp: pooled connections) or 4 (file). */
  concurrency: number | undefined;
  retry: RetryPolicy;
  /** SMTP connect, greeting and socket timeout in ms. Default 30,000. */
  timeoutMs: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export function mailConfigOf(file: MailConfigFile = {}): MailServiceConfig {
  return {
    keys: file.keys ?? [],
    keySha256: file.key_sha256 ?? [],
    templates: file.templates ?? {},
    defaultAddresser: file.default_addresser ?? "calibkit@localhost",
    engine: file.engine ?? "file",
    smtpUrl: file.smtp,
    outbox: file.outbox,
    messageIdDomain: file.message_id_domain ?? "calibkit.local",
    maxBodyBytes: file.max_body_bytes ?? DEFAULT_MAX_BODY_BYTES,
    concurrency: file.delivery?.concurrency,
    retry: {
      maxAttempts: file.delivery?.max_attempts ?? DEFAULT_RETRY.maxAttempts,
      backoffBaseMs: file.delivery?.backoff_base_ms ?? DEFAULT_RETRY.backoffBaseMs,
      backoffMaxMs: file.delivery?.backoff_max_ms ?? DEFAULT_RETRY.backoffMaxMs,
    },
    timeoutMs: file.delivery?.timeout_ms ?? 30_000,
  };
}

/** Reads and checks a config file; errors name the file and the offending fields. */
export async function loadMailConfigFile(path: string): Promise<MailConfigFile> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (cause) {
    throw new MailConfigError(`Cannot read mail config ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  const parsed = mailConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = fieldIssues(parsed.error);
    throw new MailConfigError(`Invalid mail config ${path}: ${issues.map((i) => i.message).join("; ")}`, { field: issues[0]?.field });
  }
  if (parsed.data.default_addresser && !emailAddressSchema.safeParse(parsed.data.default_addresser).success && !/^[^@\s]+@localhost$/.test(parsed.data.default_addresser)) {
    throw new MailConfigError(`Invalid mail config ${path}: default_addresser must be an e-mail address`, { field: "default_addresser" });
  }
  return parsed.data;
}

/** Keys from CALIBKIT_MAIL_KEYS (comma-separated), added to the configured ones. */
export function keysFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.CALIBKIT_MAIL_KEYS ?? "").split(",").map((k) => k.trim()).filter((k) => k !== "");
}
