// Errors of the mail service: an envelope that reports failure, and an answer that is no envelope at all.
import { CalibkitError, mailCodeName, type MAIL_CODES } from "../api/index.js";

/**
 * The envelope said `success: false` or a non-zero `code`. `mailCode` and `msg` are the envelope's (the error's
 * own `code` stays the stable "MAIL_SERVICE_ERROR", as for every CalibkitError).
 */
export class MailServiceError extends CalibkitError {
  override name = "MailServiceError";
  /** The envelope's `code`; null when a failed envelope carried none. */
  readonly mailCode: number | null;
  /** The envelope's `msg`. */
  readonly msg: string;
  /** The MAIL_CODES name of `mailCode` (our self-hosted service's codes), when it is one. */
  readonly reason: keyof typeof MAIL_CODES | undefined;
  readonly data: unknown;

  constructor(what: string, options: { status: number; mailCode: number | null; msg: string; data: unknown }) {
    const reason = options.mailCode === null ? undefined : mailCodeName(options.mailCode);
    const code = options.mailCode === null ? "no code" : `code ${options.mailCode}${reason ? ` (${reason})` : ""}`;
    super("MAIL_SERVICE_ERROR", `${what} was refused by the mail service with ${code}: ${options.msg || "no message"}`, {
      status: options.status,
    });
    this.mailCode = options.mailCode;
    this.msg = options.msg;
    this.reason = reason;
    this.data = options.data;
  }
}

/** The answer was not a mail envelope (not JSON, or JSON of another shape), e.g. a proxy's HTML error page. */
export class MailTransportError extends CalibkitError {
  override name = "MailTransportError";
  readonly body: string;
  constructor(message: string, options: { status: number; body: string; cause?: unknown }) {
    super("MAIL_TRANSPORT_ERROR", message, { status: options.status, cause: options.cause });
    this.body = options.body;
  }
}
