// Turns zod's issues into fields and sentences a person understands, so that no zod error leaves src/api raw.
import type { z } from "zod";
import { ValidationError, type FieldIssue } from "./errors.js";

type Issue = z.core.$ZodIssue;

/** Dotted path of an issue: `queries.q1.options`, array indices as `examples.3.label`. */
export function dottedPath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join(".");
}

function describeExpected(expected: string): string {
  const article = /^[aeiou]/.test(expected) ? "an" : "a";
  if (expected === "record") return "an object";
  return `${article} ${expected}`;
}

function sentence(issue: Issue, field: string): string {
  const subject = field === "" ? "The body" : `\`${field}\``;
  switch (issue.code) {
    case "invalid_type": {
      if (/received undefined/.test(issue.message)) return `${subject} is required`;
      const received = /received (\w+)/.exec(issue.message)?.[1];
      return `${subject} must be ${describeExpected(issue.expected)}${received ? `, not ${received}` : ""}`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      const op = issue.inclusive ? "at least" : "more than";
      if (issue.origin === "array") return `${subject} must have ${op} ${min} ${min === 1 ? "entry" : "entries"}`;
      if (issue.origin === "string") return min <= 1 ? `${subject} must not be empty` : `${subject} must be ${op} ${min} characters long`;
      if (issue.origin === "number") return `${subject} must be ${issue.inclusive ? "≥" : ">"} ${min}`;
      return `${subject} is too small (${op} ${min})`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      const op = issue.inclusive ? "at most" : "fewer than";
      if (issue.origin === "array") return `${subject} must have ${op} ${max} entries`;
      if (issue.origin === "string") return `${subject} must be ${op} ${max} characters long`;
      if (issue.origin === "number") return `${subject} must be ${issue.inclusive ? "≤" : "<"} ${max}`;
      return `${subject} is too big (${op} ${max})`;
    }
    case "invalid_value":
      return `${subject} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_union": {
      // A missing value fails every branch with "received undefined": say it is required, not that no shape fits.
      const branches = (issue as { errors?: Issue[][] }).errors ?? [];
      if (branches.length > 0 && branches.every((b) => b.some((i) => i.code === "invalid_type" && i.path.length === 0 && /received undefined/.test(i.message)))) {
        return `${subject} is required`;
      }
      const options = (issue as { options?: unknown[] }).options;
      if (options) return `${subject} must be one of ${options.map((v) => JSON.stringify(v)).join(", ")}`;
      return `${subject} ${issue.message.startsWith("Invalid input") ? "has none of the accepted shapes" : issue.message}`;
    }
    case "unrecognized_keys":
      return `${subject} has unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `\`${k}\``).join(", ")}`;
    case "invalid_format":
      return issue.format === "email"
        ? `${subject} must be an e-mail address`
        : `${subject} must be a valid ${issue.format}`;
    default:
      return `${subject}: ${issue.message}`;
  }
}

/** All issues of a failed parse, one per offending field path, in order. */
export function fieldIssues(error: z.core.$ZodError): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      // One issue per unknown key, at its own path, so that every one is named where it sits.
      const parent = dottedPath(issue.path);
      for (const key of issue.keys) {
        const field = dottedPath([...issue.path, key]);
        out.push({ field, message: `\`${field}\` is not a known field of ${parent === "" ? "the body" : `\`${parent}\``}` });
      }
      continue;
    }
    const field = dottedPath(issue.path);
    // Custom refinements already carry a full sentence.
    const message =
      issue.code === "custom"
        ? issue.message.startsWith("`") ? issue.message : `\`${dottedPath(issue.path)}\` ${issue.message}`
        : sentence(issue, dottedPath(issue.path));
    out.push({ field, message });
  }
  return out;
}

/** Parses `value` with `schema`, or throws a ValidationError naming every offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(what, fieldIssues(result.error));
}
