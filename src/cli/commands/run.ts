// `calibkit run`: calibrate a local model end to end through the evaluation service, cross-check every
// answer against the local conformal engine, and write summary.json and report.html (docs/run.md).
// Exit codes: 0 done and every answer agreed; 1 a cross-check disagreement or a failure; 2 bad options
// (the output folder included, checked first); 3 the audit failed (0 with --allow-audit-fail); 130 / 143
// interrupted by SIGINT / SIGTERM, temporary folders removed.
import { CalibkitError, guaranteeStatement } from "../../api/index.js";
import { runCalibration, RunOptionError, type CalibrationResult } from "../../run/index.js";
import { parseRunOptions, USAGE, type RunOptions } from "../run/options.js";
import { consoleHooks } from "../run/consoleHooks.js";
import { statisticsLines } from "../run/statisticsLines.js";
import { EXIT, exitCodeOf } from "../run/exitCode.js";
import { typedRunLines } from "../run/typedRunLines.js";

export const summary = "Calibrate a local model on a dataset end to end, cross-check every answer, write a report";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export async function run(argv: string[]): Promise<number> {
  let options: RunOptions;
  try {
    options = parseRunOptions(argv);
  } catch (err) {
    if (err instanceof RunOptionError) {
      process.stderr.write(`calibkit run: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { help: _help, quiet, allowAuditFail, ...calibration } = options;
  let result: CalibrationResult;
  try {
    result = await runCalibration({ ...calibration, ...consoleHooks(quiet) });
  } catch (err) {
    // A bad option (the output folder, a guarantee that does not fit the query type) is a usage error.
    if (err instanceof RunOptionError) {
      process.stderr.write(`calibkit run: ${err.message}\n`);
      return EXIT.options;
    }
    if (err instanceof CalibkitError) {
      process.stderr.write(`calibkit run: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const files = result.files!;
  if (result.kind === "typed") {
    const { lines, code } = typedRunLines(result.summary, files);
    process.stdout.write(lines.join("\n") + "\n");
    return code;
  }
  const s = result.summary;
  const { summaryPath, reportPath } = files;
  const d = s.crossCheck.disagreements;
  const out = [
    `${s.queryType ?? "set"}: ${guaranteeStatement(s.queryType ?? "set", "coverage", { alpha: s.profile.alpha })}`,
    `measured coverage: ${pct(s.test.coverage)} on ${s.test.n} test items (target ${pct(s.test.target)}, expected ${pct(s.test.band[0])}–${pct(s.test.band[1])}${s.statistics ? `, the central ${pct(s.statistics.bandLevel)} of its law` : ""})`,
    `average ${s.queryType === "interval" ? "interval size (levels)" : "set size"}: ${s.test.averageSetSize.toFixed(3)}, largest ${s.test.setSizes.length ? Math.max(...s.test.setSizes.map((x) => x.size)) : 0} (model top-1 accuracy ${pct(s.test.accuracy)})`,
    `cross-check: ${d.length === 0 ? "0 disagreements" : `${d.length} DISAGREEMENTS`} over ${s.crossCheck.answers} answers, ${s.crossCheck.fields} fields`,
    ...d.slice(0, 20).map((x) => `  ${x.query} ${x.field}: service ${JSON.stringify(x.service)} ≠ local ${JSON.stringify(x.local)}`),
    ...(d.length > 20 ? [`  … ${d.length - 20} more in ${summaryPath}`] : []),
    ...statisticsLines(s),
    `audit: ${s.audit.result}, realized coverage ${pct(s.audit.realizedCoverage)} of ${s.audit.sample}, 95% CI ${pct(s.audit.ci[0])}–${pct(s.audit.ci[1])}`,
    `monitor: ${s.monitor.status}, e-value ${(s.monitor.path.at(-1)?.eValue ?? 1).toPrecision(3)} after ${s.monitor.path.length} (alarm at ${s.monitor.threshold})`,
    `time: ${s.totalSeconds.toFixed(1)} s (${s.timings.map((t) => `${t.step} ${t.seconds.toFixed(1)} s`).join(", ")})`,
    `wrote ${summaryPath}`,
    `wrote ${reportPath}`,
  ];
  const code = exitCodeOf(s, allowAuditFail);
  if (code === EXIT.auditFailed) out.push(`the audit failed: exit status ${code} (--allow-audit-fail accepts it)`);
  process.stdout.write(out.join("\n") + "\n");
  return code;
}
