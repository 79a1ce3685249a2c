// The mail service's base address is accepted with or without a trailing `/api` segment and slash (mail spec
// section 4); every form resolves to `<origin><prefix>/api/batch_mail/api/`.
import { ValidationError } from "../api/index.js";

const MAIL_PREFIX = "/api/batch_mail/api/";

function invalid(message: string): ValidationError {
  return new ValidationError("mail client options", [{ field: "baseUrl", message: `\`baseUrl\` ${message}` }]);
}

/**
 * `http://h:1`, `http://h:1/`, `http://h:1/api`, `http://h:1/api/` → `http://h:1/api/batch_mail/api/`;
 * `http://h:1/mail/api` → `http://h:1/mail/api/batch_mail/api/`. A base that already ends in the full prefix is
 * taken as it is.
 */
export function mailApiPrefix(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalid(`must be an absolute http(s) URL, not ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid("must use http or https");
  if (url.search !== "" || url.hash !== "") throw invalid("must not carry a query or fragment");
  let path = url.pathname.replace(/\/+$/, "");
  if (path.endsWith("/api/batch_mail/api")) path = path.slice(0, -"/api/batch_mail/api".length);
  else if (path.endsWith("/api")) path = path.slice(0, -"/api".length);
  return `${url.origin}${path}${MAIL_PREFIX}`;
}
