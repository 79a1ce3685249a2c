// Every JSON response the HTTP tests receive through fetch from a calibkit service on loopback is validated
// against the service's OpenAPI document (ajv, JSON Schema 2020-12, with formats): a response the document does
// not describe makes that fetch reject, and so the test that made it fail. The evaluation service is recognised
// by its x-request-id header (the scripted stand-ins of the client tests send none), the mail service by its
// prefix.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { evaluationServiceOpenApi, mailServiceOpenApi } from "../../src/api/index.js";

type Json = Record<string, any>;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

interface Route { pattern: RegExp; operations: Json }
const routesOf = (doc: Json): Route[] =>
  Object.entries(doc.paths as Json).map(([path, operations]) => ({
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    operations: operations as Json,
  }));
const documents = { evaluation: routesOf(evaluationServiceOpenApi()), mail: routesOf(mailServiceOpenApi()) };
const compiled = new Map<Json, ValidateFunction>();

/** Why `body` (a response of `status` to `method url`) does not fit the document, or undefined when it does. */
export function openapiMismatch(which: keyof typeof documents, method: string, url: URL, status: number, body: unknown): string | undefined {
  const route = documents[which].find((r) => r.pattern.test(url.pathname));
  // A path the service does not route (a 404), or a stand-in's own route: nothing to hold it against.
  if (!route) return undefined;
  // A method the path does not take: the 405 every operation of the path documents.
  const operation = (route.operations[method.toLowerCase()] ?? (status === 405 ? Object.values(route.operations)[0] : undefined)) as Json | undefined;
  if (!operation) return `${method} ${url.pathname} answered ${status}: the document has no ${method} there`;
  const response = (operation.responses as Json)[String(status)] as Json | undefined;
  if (!response) return `${method} ${url.pathname} answered ${status}, a status the document does not list`;
  const schema = response.content?.["application/json"]?.schema as Json | undefined;
  if (!schema) return undefined;
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (validate(body)) return undefined;
  return `${method} ${url.pathname} ${status}: ${ajv.errorsText(validate.errors)} (body ${JSON.stringify(body).slice(0, 300)})`;
}

const original = globalThis.fetch;
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
  const response = await original(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname)) return response;
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) return response;
  const which = url.pathname.startsWith("/api/batch_mail/") || url.pathname === "/healthz" ? "mail"
    : url.pathname.startsWith("/api/v1/") && response.headers.has("x-request-id") ? "evaluation" : undefined;
  if (!which) return response;
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${url.pathname} ${response.status}: the body is not JSON although its type says so`);
  }
  const mismatch = openapiMismatch(which, method, url, response.status, body);
  if (mismatch) throw new Error(`The response does not match the OpenAPI document: ${mismatch}`);
  return response;
};
