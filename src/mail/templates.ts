// Message templates: `{{name}}` is filled from the request's attribs and is required, `{{name?}}` is
// optional (empty when absent). Values are escaped in HTML bodies and kept on one line in subjects.
// Templates are checked when the configuration loads, so a typo fails the start, not a send.
import { MailConfigError, templateAttributeMissing } from "./errors.js";
import type { AttribValue } from "./requests.js";

export interface TemplateSource {
  subject: string;
  text: string;
  html?: string | undefined;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string | undefined;
}

type Part = { literal: string } | { name: string; optional: boolean };

interface CompiledTemplate {
  name: string;
  subject: Part[];
  text: Part[];
  html: Part[] | undefined;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*(\?)?\s*\}\}/g;

/** The template used when a request names none; with no attribs it sends an empty message. */
export const DEFAULT_TEMPLATE: TemplateSource = { subject: "{{subject?}}", text: "{{text?}}" };

function compilePart(source: string, where: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const m of source.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push({ literal: source.slice(last, m.index) });
    parts.push({ name: m[1]!, optional: m[2] === "?" });
    last = m.index + m[0].length;
  }
  if (last < source.length) parts.push({ literal: source.slice(last) });
  // Braces left in literals are almost always a typo (`{{ name }` or `{{na me}}`).
  for (const p of parts) {
    if ("literal" in p && /\{\{|\}\}/.test(p.literal)) {
      throw new MailConfigError(`Template ${where} has a malformed placeholder near "${p.literal.slice(0, 40)}"`, { field: where });
    }
  }
  return parts;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export class TemplateSet {
  private readonly templates = new Map<string, CompiledTemplate>();

  /** Compiles every template; `default` is added when the configuration has none. */
  constructor(sources: Record<string, TemplateSource>) {
    const all = { default: DEFAULT_TEMPLATE, ...sources };
    for (const [name, src] of Object.entries(all)) {
      this.templates.set(name, {
        name,
        subject: compilePart(src.subject, `templates.${name}.subject`),
        text: compilePart(src.text, `templates.${name}.text`),
        html: src.html === undefined ? undefined : compilePart(src.html, `templates.${name}.html`),
      });
    }
  }

  has(name: string): boolean {
    return this.templates.has(name);
  }

  names(): string[] {
    return [...this.templates.keys()].sort();
  }

  /** Fills template `name`; throws templateAttributeMissing naming every missing attribute at once. */
  render(name: string, attribs: Record<string, AttribValue>): RenderedMessage {
    const t = this.templates.get(name);
    if (!t) throw new Error(`unknown template ${name}`);
    const missing = new Set<string>();
    const fill = (parts: Part[], encode: (s: string) => string) =>
      parts
        .map((p) => {
          if ("literal" in p) return p.literal;
          const v = Object.hasOwn(attribs, p.name) ? attribs[p.name] : undefined;
          // null counts as absent: a required attribute needs a value.
          if (v === undefined || v === null) {
            if (!p.optional) missing.add(p.name);
            return "";
          }
          return encode(String(v));
        })
        .join("");
    // A line break in a subject value would start a new header line; it becomes a space.
    const subject = fill(t.subject, (s) => s.replace(/[\r\n]+/g, " ")).replace(/[\r\n]+/g, " ");
    const text = fill(t.text, (s) => s);
    const html = t.html ? fill(t.html, escapeHtml) : undefined;
    if (missing.size > 0) throw templateAttributeMissing(name, [...missing].sort());
    return { subject, text, html };
  }
}
