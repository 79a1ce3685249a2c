// Helpers of the reference tests: the reference file writes numbers as strings (JSON has no NaN or ∞), and values
// are compared to 1e-9 relative (absolute near zero), NaN with NaN, ±∞ with itself.
import { expect } from "vitest";

export const num = (s: string): number => (s === "NaN" ? NaN : s === "Infinity" ? Infinity : s === "-Infinity" ? -Infinity : Number(s));
export const nums = (xs: readonly string[]): number[] => xs.map(num);

export function expectClose(actual: number, expected: number | string, what = ""): void {
  const e = typeof expected === "string" ? (expected === "raises" ? NaN : num(expected)) : expected;
  if (Number.isNaN(e) || !Number.isFinite(e)) {
    expect(actual, what).toBe(e);
    return;
  }
  const tol = 1e-9 * Math.max(Math.abs(e), 1e-300) + 1e-15;
  if (!(Math.abs(actual - e) <= tol)) expect.fail(`${what}: ${actual} is not within 1e-9 relative of ${e}`);
}
