// The configuration's connections and bedrock's imported models: each refusal names the field at fault, and
// a connection's credential is read from the environment by name without its value in any message.
import { afterEach, expect, it } from "vitest";
import { parseConfig } from "../../../src/service/index.js";
import { connectionCredential } from "../../../src/service/config.js";

const ARN = "arn:aws:bedrock:us-west-2:123456789012:imported-model/abc123xyz";
const aws = { aws_access_key_id_env: "CK_TEST_ID", aws_secret_access_key_env: "CK_TEST_SECRET" };
const refusal = (config: unknown) => {
  try {
    parseConfig(config);
  } catch (err) {
    return err as { status: number; field: string; message: string };
  }
  throw new Error("accepted");
};
afterEach(() => {
  delete process.env.CK_TEST_ID;
  delete process.env.CK_TEST_SECRET;
});

it.each([
  [{ backends: [{ name: "o", provider: "openai", model: "m", connection: "a" }], connections: { a: aws } }, "backends.0.connection", /only bedrock/],
  [{ backends: [{ name: "o", provider: "openai", model: "m", connection: "nope" }] }, "backends.0.connection", /"nope".*does not configure/],
  [{ backends: [{ name: "b", provider: "bedrock", model: "anthropic.claude-3-haiku", custom_model_import: true }] }, "backends.0.model", /imported model's ARN/],
  [{ backends: [{ name: "b", provider: "bedrock", model: ARN, custom_model_import: true, region: "us-east-1" }] }, "backends.0.region", /us-east-1.*us-west-2/],
  [{ connections: { a: { aws_access_key_id_env: "X" } } }, "connections.a", /.+/],
])("refuses %j at %s", (config, field, message) => {
  const err = refusal(config);
  expect(err.status).toBe(422);
  expect(err.field).toBe(field);
  expect(err.message).toMatch(message);
});

it("accepts an imported model's ARN, an AWS access key, a named profile and a Bedrock API key", () => {
  const config = parseConfig({
    backends: [
      { name: "b", provider: "bedrock", model: ARN, custom_model_import: true, region: "us-west-2", connection: "a" },
      { name: "p", provider: "bedrock", model: "m", connection: "prof" },
      { name: "k", provider: "bedrock", model: "m", connection: "key" },
    ],
    connections: { a: { ...aws, aws_session_token_env: "CK_TEST_TOKEN" }, prof: { aws_profile: "bedrock-prod" }, key: { api_key_env: "CK_BEDROCK_KEY" } },
  });
  expect(config.backends).toHaveLength(3);
});

it("reads an AWS connection from its environment variables, and names a missing one without any value", async () => {
  const config = parseConfig({ connections: { a: aws, prof: { aws_profile: "bedrock-prod" } } });
  process.env.CK_TEST_ID = "AKIAFAKE";
  await expect(connectionCredential(config, "a")).rejects.toThrow(/connection "a": CK_TEST_SECRET is not set/);
  process.env.CK_TEST_SECRET = "s3cr3t";
  expect(await connectionCredential(config, "a")).toEqual({ aws: { accessKeyId: "AKIAFAKE", secretAccessKey: "s3cr3t", sessionToken: undefined } });
  expect(await connectionCredential(config, "prof")).toEqual({ aws: { profile: "bedrock-prod" } });
});
