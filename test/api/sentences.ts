// What a readable field issue looks like: it names the dotted path first, then says in words what is wrong.
import { expect } from "vitest";
import { ValidationError } from "../../src/api/index.js";

export function expectReadable(message: string, field: string): void {
  expect(message.startsWith(field === "" ? "The body" : `\`${field}\` `)).toBe(true);
  expect(message).toMatch(/ (must|is|has|lacks) /);
  expect(message).not.toMatch(/Invalid input|ZodError|expected \w+, received|\[object /);
}

/** Runs `parse`, expects a ValidationError, and returns it after checking that `field` is among its issues. */
export function expectRejected(parse: () => unknown, field: string): ValidationError {
  let caught: unknown;
  try {
    parse();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  const error = caught as ValidationError;
  expect(error).toMatchObject({ name: "ValidationError", code: "VALIDATION_FAILED", status: 422 });
  const issue = error.issues.find((i) => i.field === field);
  expect(issue, `no issue for ${field} among ${JSON.stringify(error.issues)}`).toBeDefined();
  expectReadable(issue!.message, field);
  expect(error.message).toContain(issue!.message);
  return error;
}
