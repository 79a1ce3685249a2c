// MailClient against a real loopback server: URL forms, X-API-Key, envelope verdicts, safe defaults.
import { afterEach, describe, expect, it } from "vitest";
import { HttpError, MailClient, MailServiceError, MailTransportError, mailApiPrefix, MAIL_CODES, ValidationError } from "../../src/index.js";
import { script, startServer, type Reply, type ScriptedServer } from "./scriptedServer.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function mailClient(...replies: Reply[]): Promise<{ client: MailClient; server: ScriptedServer }> {
  server = await startServer(script(...replies));
  return { client: new MailClient({ baseUrl: `${server.origin}/api/`, apiKey: "mail-key" }), server };
}

const sendData = {
  accepted: true, status: "queued", api_log_id: 17, message_id: "<m1@x>", engine: "smtp",
  injection_status: "queued", delivery_status: "pending",
};

describe("mailApiPrefix", () => {
  it.each([
    ["http://h:1", "http://h:1/api/batch_mail/api/"],
    ["http://h:1/", "http://h:1/api/batch_mail/api/"],
    ["http://h:1/api", "http://h:1/api/batch_mail/api/"],
    ["http://h:1/api/", "http://h:1/api/batch_mail/api/"],
    ["http://h:1/mail/api", "http://h:1/mail/api/batch_mail/api/"],
    ["http://h:1/mail/", "http://h:1/mail/api/batch_mail/api/"],
    ["https://h/api/batch_mail/api/", "https://h/api/batch_mail/api/"],
  ])("%s → %s", (base, prefix) => {
    expect(mailApiPrefix(base)).toBe(prefix);
  });

  it("refuses what is not an http(s) URL", () => {
    expect(() => mailApiPrefix("h:1/api")).toThrow(ValidationError);
    expect(() => mailApiPrefix("ftp://h/api")).toThrow(/http or https/);
    expect(() => mailApiPrefix("http://h/api?x=1")).toThrow(/query/);
  });
});

describe("MailClient", () => {
  it("send: POSTs to …/api/batch_mail/api/send with X-API-Key and returns the result from `data`", async () => {
    const { client, server } = await mailClient({ status: 200, body: { success: true, code: 0, msg: "success", data: sendData } });
    const result = await client.send({ recipient: "ana@example.org", attribs: { name: "Ana" } });
    expect(result).toMatchObject({ ...sendData, api_log_id: "17" });
    expect(server.seen[0]).toMatchObject({ method: "POST", url: "/api/batch_mail/api/send", json: { recipient: "ana@example.org", attribs: { name: "Ana" } } });
    expect(server.seen[0]!.headers["x-api-key"]).toBe("mail-key");
    expect(server.seen[0]!.headers["content-type"]).toBe("application/json");
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
  });

  it("every form of the base URL reaches the same path", async () => {
    server = await startServer(script({ status: 200, body: { success: true, code: 0, msg: "success", data: sendData } }));
    for (const base of [server.origin, `${server.origin}/`, `${server.origin}/api`, `${server.origin}/api/`]) {
      await new MailClient({ baseUrl: base }).send({ recipient: "a@example.org" });
    }
    expect(server.seen.map((s) => s.url)).toEqual(Array(4).fill("/api/batch_mail/api/send"));
  });

  it("batchSend: POSTs to …/batch_send and reads message_ids", async () => {
    const data = { accepted: true, status: "queued", message_ids: ["a", null, "b"], engine: "file", injection_status: "queued", delivery_status: "pending" };
    const { client, server } = await mailClient({ status: 200, body: { success: true, code: 0, msg: "success", data } });
    const result = await client.batchSend({ recipients: ["a@example.org", "b@example.org"] });
    expect(result.message_ids).toEqual(["a", "b"]);
    expect(server.seen[0]).toMatchObject({ url: "/api/batch_mail/api/batch_send", json: { recipients: ["a@example.org", "b@example.org"] } });
  });

  it("getSendStatus: GETs …/status/{api_log_id}", async () => {
    const { client, server } = await mailClient({ status: 200, body: { success: true, code: 0, msg: "success", data: { api_log_id: "17", delivery_status: "delivered" } } });
    const status = await client.getSendStatus(17);
    expect(status).toMatchObject({ api_log_id: "17", delivery_status: "delivered", injection_status: "unknown", message_ids: [] });
    expect(server.seen[0]).toMatchObject({ method: "GET", url: "/api/batch_mail/api/status/17" });
  });

  it("missing or null result fields become the documented safe defaults; a missing code beside success reads as 0", async () => {
    const { client } = await mailClient(
      { status: 200, body: { success: true, msg: "success", data: { accepted: null, status: null } } },
      { status: 200, body: { success: true, code: 0, msg: "success", data: null } },
    );
    const defaults = { accepted: false, status: "", api_log_id: null, message_id: null, engine: "", injection_status: "unknown", delivery_status: "unknown" };
    expect(await client.send({ recipient: "a@example.org" })).toEqual(defaults);
    expect(await client.batchSend({ recipients: ["a@example.org"] })).toEqual({
      accepted: false, status: "", api_log_id: null, message_ids: [], engine: "", injection_status: "unknown", delivery_status: "unknown",
    });
  });

  it("reads result fields placed beside the envelope's when `data` is absent", async () => {
    const { client } = await mailClient({ status: 200, body: { success: true, code: 0, msg: "success", ...sendData } });
    expect((await client.send({ recipient: "a@example.org" })).engine).toBe("smtp");
  });

  it("success:false or code ≠ 0 → MailServiceError with mailCode and msg", async () => {
    const { client } = await mailClient(
      { status: 400, body: { success: false, code: MAIL_CODES.invalidAddress, msg: "bad address", data: null } },
      { status: 200, body: { success: true, code: 7, msg: "odd" } },
      { status: 200, body: { success: false, msg: "no code" } },
    );
    const first = await client.send({ recipient: "a@example.org" }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(MailServiceError);
    expect(first).toMatchObject({ code: "MAIL_SERVICE_ERROR", mailCode: 1002, msg: "bad address", reason: "invalidAddress", status: 400 });
    expect((first as Error).message).toMatch(/refused by the mail service with code 1002 \(invalidAddress\): bad address/);
    expect(await client.send({ recipient: "a@example.org" }).catch((e: unknown) => e)).toMatchObject({ mailCode: 7, msg: "odd" });
    expect(await client.send({ recipient: "a@example.org" }).catch((e: unknown) => e)).toMatchObject({ mailCode: null, msg: "no code" });
  });

  it("a non-JSON answer → MailTransportError; a 5xx with no envelope → HttpError", async () => {
    const { client } = await mailClient(
      { status: 502, raw: "<html>Bad Gateway</html>", headers: { "content-type": "text/html" } },
      { status: 503, body: { error: "maintenance" } },
      { status: 200, body: { ok: true } },
    );
    const html = await client.send({ recipient: "a@example.org" }).catch((e: unknown) => e);
    expect(html).toBeInstanceOf(MailTransportError);
    expect((html as Error).message).toMatch(/answered 502 with no JSON envelope \(text\/html: "<html>Bad Gateway<\/html>"\)/);
    const json5xx = await client.send({ recipient: "a@example.org" }).catch((e: unknown) => e);
    expect(json5xx).toBeInstanceOf(HttpError);
    expect(json5xx).toMatchObject({ status: 503 });
    expect(await client.send({ recipient: "a@example.org" }).catch((e: unknown) => e)).toBeInstanceOf(MailTransportError);
  });

  it("a result of the wrong type → ResponseFormatError naming data.<field>", async () => {
    const { client } = await mailClient({ status: 200, body: { success: true, code: 0, msg: "success", data: { accepted: "yes" } } });
    await expect(client.send({ recipient: "a@example.org" })).rejects.toMatchObject({ code: "RESPONSE_FORMAT", field: "data.accepted" });
  });

  it("validates recipients (and unknown fields) before any network call", async () => {
    const { client, server } = await mailClient({ status: 200, body: { success: true, code: 0, msg: "success", data: sendData } });
    await expect(client.send({ recipient: "not-an-address" })).rejects.toMatchObject({ name: "ValidationError", field: "recipient" });
    await expect(client.batchSend({ recipients: ["a@example.org", "b@@example.org"] })).rejects.toMatchObject({ field: "recipients.1" });
    await expect(client.batchSend({ recipients: [] })).rejects.toMatchObject({ field: "recipients" });
    await expect(client.send({ recipient: "a@example.org", cc: "b@example.org" } as never)).rejects.toMatchObject({ field: "cc" });
    expect(server.seen).toHaveLength(0);
  });

  it("does not retry by default; retries when given a policy, with one Idempotency-Key", async () => {
    const { client, server } = await mailClient({ status: 529, body: { success: false, code: 1429, msg: "busy" } }, { status: 200, body: { success: true, code: 0, msg: "success", data: sendData } });
    await expect(client.send({ recipient: "a@example.org" })).rejects.toBeInstanceOf(MailServiceError);
    expect(server.seen).toHaveLength(1);
    const retrying = new MailClient({ baseUrl: server.origin, retry: { random: () => 0 } });
    server.seen.length = 0;
    await expect(retrying.send({ recipient: "a@example.org" })).resolves.toMatchObject({ accepted: true });
  });
});
