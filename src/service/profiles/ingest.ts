// Turns a POST .../examples into one log record: validates what the schema cannot (evidence shape, the
// label against the evidence, groups, fingerprints), and runs the profile's monitors over the new examples
// against the calibration as it stood before them, so their e-process states travel in the same record.
import { fieldIssues, safeParseEvidence, ValidationError, type ExampleRecord, type FieldIssue } from "../../api/index.js";
import { coveredBy, gateLoss } from "../engine/coverage.js";
import { monitorEValue, rngFromString, updateMonitor } from "../engine/conformal.js";
import { labelName } from "../engine/evidence.js";
import type { ProfileState } from "./profileState.js";
import type { AlertRecord, ExamplesRecord, MonitorState } from "./records.js";

export interface IngestResult {
  record: ExamplesRecord;
  warnings: string[];
}

function validate(state: ProfileState, examples: readonly ExampleRecord[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  examples.forEach((example, i) => {
    const path = `examples.${i}`;
    const raw = example.metadata?.evidence;
    if (raw !== undefined) {
      const parsed = safeParseEvidence(raw);
      if (!parsed.success) {
        for (const issue of fieldIssues(parsed.error)) {
          const field = `${path}.metadata.evidence${issue.field ? `.${issue.field}` : ""}`;
          issues.push({ field, message: issue.message.replace(/^(`[^`]*`|The body)/, `\`${field}\``) });
        }
      } else {
        const map = parsed.data.option_probabilities ?? parsed.data.level_probabilities;
        const name = labelName(example.label, map && "pass" in map ? ["pass", "fail"] : ["yes", "no"]);
        if (map && name !== undefined && !Object.hasOwn(map, name)) {
          issues.push({ field: `${path}.label`, message: `\`${path}.label\` ${JSON.stringify(name)} is not one of the evidence's names (${Object.keys(map).join(", ")})` });
        }
      }
    }
    const fp = example.metadata?.backend_fingerprint;
    if (fp !== undefined && typeof fp !== "string") {
      issues.push({ field: `${path}.metadata.backend_fingerprint`, message: `\`${path}.metadata.backend_fingerprint\` must be a string` });
    }
    if (state.meta.group_by && state.groupOf(example) === undefined) {
      issues.push({ field: `${path}.group`, message: `\`${path}.group\` is required because profile "${state.name}" is grouped by ${state.meta.group_by} (or set metadata.${state.meta.group_by})` });
    }
  });
  return issues;
}

/** Runs every active monitor over the new examples; returns the states it moved and any alarm message. */
function runMonitors(state: ProfileState, examples: readonly ExampleRecord[], now: Date): { monitors: Record<string, MonitorState>; alarms: string[] } {
  const monitors: Record<string, MonitorState> = {};
  const alarms: string[] = [];
  for (const [id, { definition, state: current }] of state.monitors) {
    let eprocess = current.eprocess;
    const alerts: AlertRecord[] = [...current.alerts];
    let status = current.status;
    let moved = false;
    examples.forEach((example, i) => {
      const index = state.n + i;
      if (definition.labelled_sample_rate < 1 && rngFromString(`${state.name}/${id}/${index}`)() >= definition.labelled_sample_rate) return;
      if (example.source === "judge" && !definition.use_judge_pseudo_labels) return;
      const miss = definition.type === "risk"
        ? gateLoss(state, example, definition.target)
        : (() => {
            const covered = coveredBy(state, example, definition.target, `monitor:${id}:${index}`);
            return covered === undefined ? undefined : !covered;
          })();
      if (miss === undefined) return;
      const wasAlarmed = eprocess.alarmed;
      eprocess = updateMonitor(eprocess, miss);
      moved = true;
      if (eprocess.alarmed && !wasAlarmed) {
        status = "alarmed";
        const e = monitorEValue(eprocess);
        const what = definition.type === "risk" ? "risk (approved fails)" : "miscoverage";
        const message = `${what} rate ${(eprocess.errors / eprocess.t).toFixed(4)} over ${eprocess.t} labelled examples exceeds target ${definition.target}: e-value ${e.toPrecision(4)} ≥ 1/${definition.false_alarm_rate}`;
        alerts.push({ type: `${definition.type}_drift`, severity: "critical", n: eprocess.t, e_value: e, target: definition.target, false_alarm_rate: definition.false_alarm_rate, detected_at: now.toISOString(), message });
        alarms.push(`monitor ${id} alarmed: ${message}`);
      }
    });
    if (moved) monitors[id] = { eprocess, status, alerts };
  }
  return { monitors, alarms };
}

export function prepareExamples(state: ProfileState, examples: ExampleRecord[], idempotency: ExamplesRecord["idempotency"], now = new Date()): IngestResult {
  const issues = validate(state, examples);
  const warnings: string[] = [];
  let fingerprint: string | undefined;
  let stale: string | undefined;
  const current = state.fingerprint;
  // A strict profile also refuses examples prompted differently from its prompt_template_hash (docs/prompts.md).
  const promptHash = state.meta.prompt_template_hash;
  if (state.meta.strict_fingerprint && promptHash !== undefined) {
    examples.forEach((example, i) => {
      const h = example.metadata?.prompt_template_hash;
      const field = `examples.${i}.metadata.prompt_template_hash`;
      if (typeof h === "string" && h !== promptHash) issues.push({ field, message: `\`${field}\` is ${h}, but profile "${state.name}" is strict and prompted with ${promptHash}` });
    });
  }
  examples.forEach((example, i) => {
    const fp = example.metadata?.backend_fingerprint;
    if (typeof fp !== "string" || current === undefined || fp === current || fp === fingerprint) return;
    if (state.meta.strict_fingerprint) {
      const field = `examples.${i}.metadata.backend_fingerprint`;
      issues.push({ field, message: `\`${field}\` is ${fp}, but profile "${state.name}" is strict and calibrated on ${current}` });
    } else {
      fingerprint = fp;
    }
  });
  if (issues.length > 0) throw new ValidationError("examples request", issues);
  if (fingerprint !== undefined) {
    stale = `backend fingerprint changed from ${current} to ${fingerprint}`;
    warnings.push(`${stale}; the profile is stale until more examples arrive (it is not strict)`);
  }
  const { monitors, alarms } = runMonitors(state, examples, now);
  if (alarms.length > 0) stale = alarms.join("; ");
  warnings.push(...alarms);
  const record: ExamplesRecord = {
    t: "examples",
    at: now.toISOString(),
    examples,
    ...(idempotency ? { idempotency } : {}),
    ...(fingerprint !== undefined ? { fingerprint } : {}),
    ...(stale !== undefined ? { stale } : {}),
    ...(Object.keys(monitors).length > 0 ? { monitors } : {}),
  };
  return { record, warnings };
}
