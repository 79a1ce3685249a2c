// The pinned date of chat templates that print today's date (Llama 3.x): a calibration made today and a
// query made next month must see the same prompt, so templates never read the clock.

/** Default pinned date: the one Llama 3.1's own template falls back to ("26 Jul 2024"). */
export const DEFAULT_PINNED_DATE = new Date(Date.UTC(2024, 6, 26));

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** Python's `strftime` for the directives chat templates use, in UTC (the pinned date has no time zone). */
export function strftimeUtc(date: Date, format: string): string {
  return format.replace(/%([a-zA-Z%])/g, (whole, d: string) => {
    switch (d) {
      case "d": return pad(date.getUTCDate());
      case "e": return String(date.getUTCDate()).padStart(2, " ");
      case "m": return pad(date.getUTCMonth() + 1);
      case "b": return MONTHS[date.getUTCMonth()]!.slice(0, 3);
      case "B": return MONTHS[date.getUTCMonth()]!;
      case "y": return pad(date.getUTCFullYear() % 100);
      case "Y": return String(date.getUTCFullYear());
      case "a": return DAYS[date.getUTCDay()]!.slice(0, 3);
      case "A": return DAYS[date.getUTCDay()]!;
      case "H": return pad(date.getUTCHours());
      case "M": return pad(date.getUTCMinutes());
      case "S": return pad(date.getUTCSeconds());
      case "j": return pad(Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3);
      case "%": return "%";
      default: return whole;
    }
  });
}

/**
 * The template with every `strftime_now("<literal format>")` call replaced by the pinned date so formatted.
 * node-llama-cpp clones its render parameters, so a function cannot be passed in; a template that calls
 * strftime_now with a computed format keeps the engine's clock and is reported by `readsClock`.
 */
export function pinTemplateDate(template: string, date: Date): string {
  return template.replace(/strftime_now\(\s*(["'])((?:(?!\1).)*)\1\s*\)/g, (_, _q: string, format: string) =>
    JSON.stringify(strftimeUtc(date, format)));
}

/** Whether a template still reads the clock after pinning. */
export function readsClock(template: string): boolean {
  return /strftime_now\s*\(/.test(template);
}

/** The parameters a date-printing template reads: Llama 3.1's `date_string`. */
export function dateRenderParameters(date: Date): { date_string: string } {
  return { date_string: strftimeUtc(date, "%d %b %Y") };
}
