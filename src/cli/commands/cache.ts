// `calibkit cache list|prune`: what the evidence cache holds (per model × prompt settings × access level)
// and deleting from it (docs/run.md, "The evidence cache").
import { existsSync } from "node:fs";
import { join } from "node:path";
import { EvidenceCache, EVIDENCE_CACHE_FILE } from "../../store/index.js";
import { parseCommand, usage } from "../args.js";
import { cacheDirOf } from "../../run/index.js";

export const summary = "List or prune the evidence cache that runs and suites reuse";

const HELP = `usage: calibkit cache list [--cache DIR]
       calibkit cache prune [--cache DIR] [--model TEXT] [--older-than DAYS] [--all]

  list               one line per model, prompt settings and access level: rows, first and last write
  prune              delete rows: those of models whose path or fingerprint contains TEXT, those
                     written more than DAYS days ago, or every row with --all
  --cache DIR        the cache folder (default: $CALIBKIT_CACHE, else $XDG_CACHE_HOME/calibkit,
                     else ~/.cache/calibkit)
`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("cache", argv, {
    cache: { type: "string" }, model: { type: "string" }, "older-than": { type: "string" }, all: { type: "boolean" },
  }, HELP, { positionals: true });
  if (typeof parsed === "number") return parsed;
  const [action, ...extra] = parsed.positionals;
  if (action !== "list" && action !== "prune") return usage("cache", `expected "list" or "prune", got ${action === undefined ? "nothing" : `"${action}"`}`, HELP);
  if (extra.length > 0) return usage("cache", `unexpected argument "${extra[0]}"`, HELP);
  const v = parsed.values;
  const dir = cacheDirOf(v.cache, false)!;
  if (action === "list") {
    if (!existsSync(join(dir, EVIDENCE_CACHE_FILE))) {
      process.stdout.write(`${dir}: empty (no evidence cached yet)\n`);
      return 0;
    }
    const cache = EvidenceCache.open(dir);
    try {
      const groups = cache.list();
      const lines = [`${dir}: ${groups.reduce((a, g) => a + g.rows, 0)} evidence rows`];
      for (const g of groups) {
        lines.push(`  ${g.rows.toString().padStart(7)}  ${g.model}  ${g.accessLevel}  model ${g.fingerprint.slice(0, 19)}…  prompts ${g.promptHash.slice(0, 19)}…  ${g.first.slice(0, 19)} – ${g.last.slice(0, 19)}`);
      }
      process.stdout.write(lines.join("\n") + "\n");
    } finally {
      cache.close();
    }
    return 0;
  }
  let before: Date | undefined;
  if (v["older-than"] !== undefined) {
    const days = Number(v["older-than"]);
    if (!(days >= 0) || !Number.isFinite(days)) return usage("cache", `--older-than: must be a number of days ≥ 0, got "${v["older-than"]}"`, HELP);
    before = new Date(Date.now() - days * 86_400_000);
  }
  if (!v.all && v.model === undefined && before === undefined) return usage("cache", "prune needs --model, --older-than or --all", HELP);
  if (!existsSync(join(dir, EVIDENCE_CACHE_FILE))) {
    process.stdout.write(`${dir}: empty, nothing to prune\n`);
    return 0;
  }
  const cache = EvidenceCache.open(dir);
  try {
    const n = cache.prune({ ...(v.model !== undefined ? { model: v.model } : {}), ...(before ? { before } : {}) });
    process.stdout.write(`pruned ${n} evidence rows from ${dir}\n`);
  } finally {
    cache.close();
  }
  return 0;
}
