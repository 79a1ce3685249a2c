// What both OpenAPI documents share: a zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect) through zod 4's
// own z.toJSONSchema, and operations written from schemas. Schemas are taken as their input side: what a
// request may send and what a reader of a response must accept (defaults left optional, transforms as their
// wire type).
import { z } from "zod";

type Json = Record<string, unknown>;

/** A schema's JSON Schema, without its `$schema` key (the document's dialect already says it). */
export function jsonSchemaOf(schema: z.ZodType): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Json;
  return rest;
}

export interface OperationSpec {
  summary: string;
  description?: string;
  request?: z.ZodType;
  /** Status → [description, schema]; a status without a schema has no body. */
  responses: Record<number, [string, z.ZodType | undefined]>;
  /** Path parameters, by name, each a description. */
  params?: Record<string, string>;
  query?: Record<string, [string, Json]>;
  /** The body is not JSON: its media type and a string schema. */
  text?: string;
}

export function operation(id: string, spec: OperationSpec, errors: Record<number, [string, z.ZodType]>, security: Json[]): Json {
  const parameters = [
    ...Object.entries(spec.params ?? {}).map(([name, description]) => ({ name, in: "path", required: true, description, schema: { type: "string" } })),
    ...Object.entries(spec.query ?? {}).map(([name, [description, schema]]) => ({ name, in: "query", required: false, description, schema })),
  ];
  const responses: Json = {};
  for (const [status, [description, schema]] of Object.entries({ ...errors, ...spec.responses })) {
    responses[status] = schema === undefined
      ? { description }
      : { description, content: { [spec.text && status === "200" ? spec.text : "application/json"]: { schema: spec.text && status === "200" ? { type: "string" } : jsonSchemaOf(schema) } } };
  }
  return {
    operationId: id,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.request ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchemaOf(spec.request) } } } } : {}),
    responses,
    security,
  };
}
