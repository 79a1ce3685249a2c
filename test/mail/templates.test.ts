import { describe, expect, it } from "vitest";
import { MailServiceError, TemplateSet } from "../../src/mail/index.js";

describe("TemplateSet", () => {
  const set = new TemplateSet({
    report: { subject: "Report {{ week }} for {{team}}", text: "Dear {{name}},\n{{note?}}done", html: "<b>{{name}}</b> {{note?}}" },
  });

  it("fills required and optional placeholders, escaping only the HTML body", () => {
    const r = set.render("report", { week: 47, team: "A&B", name: "<Ann>", note: null });
    expect(r).toEqual({ subject: "Report 47 for A&B", text: "Dear <Ann>,\ndone", html: "<b>&lt;Ann&gt;</b> " });
    expect(set.render("report", { week: 1, team: "t", name: "n", note: "x'y\"" }).html).toBe("<b>n</b> x&#39;y&quot;");
  });

  it("keeps a subject on one line", () => {
    expect(set.render("report", { week: "1\r\nBcc: evil@example.org", team: "t", name: "n" }).subject).toBe("Report 1 Bcc: evil@example.org for t");
  });

  it("names every missing attribute at once; null counts as missing", () => {
    let err: unknown;
    try {
      set.render("report", { team: null });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MailServiceError);
    expect((err as MailServiceError).envelopeCode).toBe(1006);
    expect((err as MailServiceError).message).toMatch(/attributes `name`, `team`, `week`/);
    expect((err as MailServiceError).issues.map((i) => i.field)).toEqual(["attribs.name", "attribs.team", "attribs.week"]);
  });

  it("has a default template that needs nothing", () => {
    expect(set.names()).toEqual(["default", "report"]);
    expect(set.render("default", {})).toEqual({ subject: "", text: "", html: undefined });
    expect(set.render("default", { subject: "S", text: "T", other: 1 })).toEqual({ subject: "S", text: "T", html: undefined });
  });

  it("refuses a malformed placeholder when the configuration loads", () => {
    expect(() => new TemplateSet({ bad: { subject: "{{ name }", text: "" } })).toThrow(/templates\.bad\.subject has a malformed placeholder/);
    expect(() => new TemplateSet({ bad: { subject: "", text: "{{na me}}" } })).toThrow(/templates\.bad\.text/);
  });
});
