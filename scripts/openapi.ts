// Writes the OpenAPI documents of both services into docs/openapi/ (`npm run openapi`); a test fails while the
// committed files differ from what the schemas give.
import { mkdir, writeFile } from "node:fs/promises";
import { evaluationServiceOpenApi, mailServiceOpenApi } from "../src/api/index.js";

export const OPENAPI_FILES = {
  "docs/openapi/evaluation-service.json": evaluationServiceOpenApi,
  "docs/openapi/mail-service.json": mailServiceOpenApi,
} as const;

export const openapiText = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  await mkdir("docs/openapi", { recursive: true });
  for (const [path, build] of Object.entries(OPENAPI_FILES)) {
    await writeFile(path, openapiText(build()));
    process.stdout.write(`wrote ${path}\n`);
  }
}
