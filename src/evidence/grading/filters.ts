// lm-eval's answer filters (filters/extraction.py, selection.py) and generate_until's stop handling, over one
// response: the text is cut at the first stop sequence, `remove_whitespace` strips it, `regex` keeps one
// match as Python's re.findall returns it (a group, or the first non-empty group of a tuple), else a fallback.
import { pyStrip } from "./pythonText.js";

/** The text before the earliest stop sequence, as lm-eval cuts a generation (`s.split(term)[0]` for each term). */
export function cutAtStops(text: string, until: readonly string[]): string {
  let out = text;
  for (const stop of until) {
    if (stop === "") continue;
    const at = out.indexOf(stop);
    if (at >= 0) out = out.slice(0, at);
  }
  return out;
}

/** `remove_whitespace`: Python's str.strip(). */
export const removeWhitespace = pyStrip;

export interface RegexFilterOptions {
  /** JavaScript form of the task's `regex_pattern` (no `g` needed). */
  pattern: RegExp;
  /** Which match to keep, Python-style (-1 is the last); default 0. */
  groupSelect?: number;
  /** Default "[invalid]", as lm-eval's. */
  fallback?: string;
}

/** Python's re.findall: the whole match without groups, the group with one, a tuple of groups ("" when unmatched) with more. */
export function findall(text: string, pattern: RegExp): (string | string[])[] {
  const re = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  const out: (string | string[])[] = [];
  for (const m of text.matchAll(re)) {
    const groups = m.slice(1).map((g) => g ?? "");
    out.push(groups.length === 0 ? m[0] : groups.length === 1 ? groups[0]! : groups);
  }
  return out;
}

/** lm-eval's `regex` filter on one response. */
export function regexFilter(text: string, options: RegexFilterOptions): string {
  const fallback = options.fallback ?? "[invalid]";
  const matches = findall(text, options.pattern);
  if (matches.length === 0) return fallback;
  const g = options.groupSelect ?? 0;
  const index = g < 0 ? matches.length + g : g;
  // Python raises IndexError here; lm-eval never asks for a match beyond the list with its own tasks.
  if (index < 0 || index >= matches.length) throw new RangeError(`group_select ${g} is outside the ${matches.length} matches`);
  let match = matches[index]!;
  if (Array.isArray(match)) match = match.find((x) => x !== "") ?? fallback;
  return pyStrip(match);
}
