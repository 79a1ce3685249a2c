// The OpenAPI 3.1 documents: generated from src/api's schemas, committed under docs/openapi/ (this fails while the
// files are stale: `npm run openapi` writes them), valid for a maintained OpenAPI validator, and served by both
// services as committed.
import SwaggerParser from "@apidevtools/swagger-parser";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluationServiceOpenApi, mailServiceOpenApi } from "../../src/api/index.js";
import { startMailService } from "../../src/mail/index.js";
import { startService } from "../../src/service/index.js";
import { OPENAPI_FILES, openapiText } from "../../scripts/openapi.js";

describe("the OpenAPI documents", () => {
  it("are committed as the schemas give them (run `npm run openapi` after changing a schema)", async () => {
    for (const [path, build] of Object.entries(OPENAPI_FILES)) {
      expect(await readFile(path, "utf8"), `${path} is stale: run npm run openapi`).toBe(openapiText(build()));
    }
  });

  it("load in swagger-parser's OpenAPI 3.1 validator without errors", async () => {
    for (const build of [evaluationServiceOpenApi, mailServiceOpenApi]) {
      const api = await SwaggerParser.validate(structuredClone(build()) as never);
      expect((api as { openapi: string }).openapi).toBe("3.1.0");
    }
  });

  it("name every endpoint the services route", async () => {
    const paths = Object.keys(evaluationServiceOpenApi().paths as object);
    for (const p of ["/api/v1/evaluate", "/api/v1/calibration-profiles/{name}/examples", "/api/v1/calibration-profiles/{name}/monitors/{id}/alerts", "/api/v1/human-queue/{id}/resolve", "/api/v1/openapi.json", "/metrics"]) {
      expect(paths).toContain(p);
    }
    expect(Object.keys(mailServiceOpenApi().paths as object)).toEqual(expect.arrayContaining(["/api/batch_mail/api/send", "/api/batch_mail/api/batch_send", "/api/batch_mail/api/status/{api_log_id}", "/api/batch_mail/api/openapi.json"]));
  });

  it("are served at GET /api/v1/openapi.json and at the mail service's prefix", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-openapi-"));
    await using service = await startService({ dataDir: join(dir, "svc"), log: () => undefined });
    const served = await fetch(`${service.baseUrl}/openapi.json`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(JSON.parse(await readFile("docs/openapi/evaluation-service.json", "utf8")));
    await using mail = await startMailService({ dataDir: join(dir, "mail"), log: () => undefined });
    const mailServed = await fetch(`${mail.url}/api/batch_mail/api/openapi.json`);
    expect(mailServed.status).toBe(200);
    expect(await mailServed.json()).toEqual(JSON.parse(await readFile("docs/openapi/mail-service.json", "utf8")));
  });
});
