// The foundation's MailClient against `calibkit mail-serve` as a real process, with every base URL form.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailClient, MailServiceError } from "../../src/client/index.js";
import { serve, type Served } from "./processes.js";
import { waitFor } from "./smtpSink.js";

let dir: string;
let served: Served;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "calibkit-mail-client-"));
  served = await serve(["mail-serve", "--port", "0", "--data", dir], { CALIBKIT_MAIL_KEYS: "client-key-0001,other-key-0002" });
});
afterAll(async () => {
  if (served) {
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  }
  await rm(dir, { recursive: true, force: true });
});

describe("MailClient ↔ calibkit mail-serve", () => {
  for (const suffix of ["", "/", "/api", "/api/"]) {
    it(`sends, batch-sends and reads the status with base URL "…${suffix}"`, async () => {
      const client = new MailClient({ baseUrl: served.url + suffix, apiKey: "client-key-0001" });
      const one = await client.send({ recipient: "one@example.org", attribs: { subject: `single ${suffix}`, text: "hi" } });
      expect(one).toMatchObject({ accepted: true, engine: "file", injection_status: "queued", delivery_status: "pending" });
      expect(one.message_id).toMatch(/@/);
      const batch = await client.batchSend({ recipients: ["a@example.org", "b@example.org"], attribs: { subject: "batch" } });
      expect(batch.message_ids).toHaveLength(2);
      await waitFor(async () => (await client.getSendStatus(batch.api_log_id!)).delivery_status === "delivered");
      const s = await client.getSendStatus(one.api_log_id!);
      await waitFor(async () => (await client.getSendStatus(one.api_log_id!)).delivery_status === "delivered");
      expect(s.message_ids).toEqual([one.message_id]);
      const files = await readdir(join(dir, "outbox"));
      for (const id of [one.message_id!, ...batch.message_ids]) expect(files).toContain(`${id}.eml`);
    });
  }

  it("surfaces a wrong key as the envelope's unauthorized code", async () => {
    const client = new MailClient({ baseUrl: served.url + "/api", apiKey: "wrong-key-9999" });
    const err = await client.send({ recipient: "x@example.org" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailServiceError);
    expect(err).toMatchObject({ mailCode: 1401, reason: "unauthorized", status: 401 });
  });

  it("surfaces an unknown template with its code", async () => {
    const client = new MailClient({ baseUrl: served.url, apiKey: "other-key-0002" });
    const err = await client.send({ recipient: "x@example.org", template: "nope" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ mailCode: 1007, reason: "unknownTemplate" });
  });
});
