// The mail spec's requests (addresses, batch limits, unknown fields) and results (safe defaults).
import { describe, expect, it } from "vitest";
import {
  batchSendResultSchema, isEmailAddress, MAX_BATCH_RECIPIENTS, parseBatchSendRequest, parseSendRequest, sendResultSchema,
} from "../../src/api/index.js";
import { expectRejected } from "./sentences.js";

describe("mail requests", () => {
  it("recipient: an address passes, anything else fails with a sentence", () => {
    expect(parseSendRequest({ recipient: "ana.b+tag@mail.example.org", addresser: "noreply@example.org", attribs: { n: 1 } }).recipient).toBe("ana.b+tag@mail.example.org");
    for (const bad of ["ana", "ana@", "@example.org", "ana@example", "a b@example.org", "ana..b@example.org", "<ana@example.org>"]) {
      expect(isEmailAddress(bad), bad).toBe(false);
      const error = expectRejected(() => parseSendRequest({ recipient: bad }), "recipient");
      expect(error.issues[0]!.message).toBe("`recipient` must be an e-mail address such as name@example.org");
    }
    expectRejected(() => parseSendRequest({ recipient: "a@example.org", addresser: "nope" }), "addresser");
  });

  it("batch: 1 to MAX_BATCH_RECIPIENTS recipients, each checked at its index", () => {
    expect(parseBatchSendRequest({ recipients: ["a@example.org"] }).recipients).toHaveLength(1);
    expect(parseBatchSendRequest({ recipients: Array(MAX_BATCH_RECIPIENTS).fill("a@example.org") }).recipients).toHaveLength(MAX_BATCH_RECIPIENTS);
    expectRejected(() => parseBatchSendRequest({ recipients: [] }), "recipients");
    expectRejected(() => parseBatchSendRequest({ recipients: Array(MAX_BATCH_RECIPIENTS + 1).fill("a@example.org") }), "recipients");
    expectRejected(() => parseBatchSendRequest({ recipients: ["a@example.org", "oops"] }), "recipients.1");
  });

  it("unknown fields are refused and named", () => {
    const error = expectRejected(() => parseSendRequest({ recipient: "a@example.org", subject: "hi" }), "subject");
    expect(error.issues[0]!.message).toBe("`subject` is not a known field of the body");
    expectRejected(() => parseBatchSendRequest({ recipients: ["a@example.org"], recipient: "b@example.org" }), "recipient");
    expectRejected(() => parseSendRequest({ recipient: "a@example.org", attribs: { n: { nested: 1 } } }), "attribs.n");
  });
});

describe("mail results: missing or null fields become safe defaults", () => {
  it("send result", () => {
    expect(sendResultSchema.parse({})).toEqual({
      accepted: false, status: "", api_log_id: null, message_id: null, engine: "", injection_status: "unknown", delivery_status: "unknown",
    });
    expect(sendResultSchema.parse({ accepted: true, api_log_id: 12, injection_status: null }).api_log_id).toBe("12");
  });

  it("batch result", () => {
    expect(batchSendResultSchema.parse({ message_ids: null })).toMatchObject({ accepted: false, message_ids: [], engine: "" });
    expect(batchSendResultSchema.parse({ message_ids: ["a", null] }).message_ids).toEqual(["a"]);
  });
});
