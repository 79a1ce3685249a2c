// A labelled dataset → example records for a client_evidence profile: each record carries the evidence
// computed for it in `metadata.evidence` (docs/evidence.md), so the service never needs the model.
import { exampleRecordSchema, type AccessHint, type AccessLevel, type ExampleRecord } from "../api/index.js";
import { resolveAccessLevel, type ModelAdapter } from "../adapters/index.js";
import { computeEvidence, type EvidenceOptions } from "./computeEvidence.js";
import { promptSettingsHash, resolvePromptSettings } from "./format/index.js";
import { parseQueries } from "./buildEvaluateRequest.js";
import { EvidenceError } from "./errors.js";
import { createProgress, type ProgressMode } from "./progress.js";

export interface DatasetItem {
  context: unknown;
  label: unknown;
  group?: string;
  source?: string;
  metadata?: Record<string, unknown>;
}

export interface BuildExampleRecordsOptions extends EvidenceOptions {
  adapter: ModelAdapter;
  /** The profile's query; its evidence is computed on each item's context. */
  query: unknown;
  accessHint?: AccessHint;
  /** Default "auto": a bar on a TTY stderr, periodic lines otherwise; "none" is silent. */
  progress?: ProgressMode;
}

export interface ExampleRecordsResult {
  records: ExampleRecord[];
  /** The prompt_template_hash of the settings every record was prompted with (for the profile). */
  promptTemplateHash: string;
  accessLevel: AccessLevel;
  /** Examples per second over the whole run. */
  examplesPerSecond: number;
  seconds: number;
}

export async function buildExampleRecords(
  dataset: readonly DatasetItem[], options: BuildExampleRecordsOptions,
): Promise<ExampleRecordsResult> {
  const level = resolveAccessLevel(options.adapter.accessLevel, options.accessHint ?? "auto");
  const { q: query } = parseQueries({ q: options.query });
  if (query!.type === "route") throw new EvidenceError("route queries carry no evidence; their examples need none", "query");
  // Resolved once, so every record is prompted (and hashed) the same way.
  const prompt = options.prompt && "chat" in options.prompt ? options.prompt : await resolvePromptSettings(options.prompt ?? {}, options.adapter);
  const promptHash = promptSettingsHash(prompt, query!.type as Parameters<typeof promptSettingsHash>[1]);
  const progress = createProgress(dataset.length, options.progress ?? "auto");
  const started = performance.now();
  const records: ExampleRecord[] = [];
  try {
    for (const [i, item] of dataset.entries()) {
      options.signal?.throwIfAborted();
      const evidence = (await computeEvidence(item.context, { q: query! }, options.adapter, level, { ...options, prompt })).q;
      const parsed = exampleRecordSchema.safeParse({
        context: item.context, label: item.label,
        ...(item.group === undefined ? {} : { group: item.group }),
        ...(item.source === undefined ? {} : { source: item.source }),
        metadata: {
          ...item.metadata, evidence, access_level: level, backend_fingerprint: options.adapter.fingerprint, prompt_template_hash: promptHash,
        },
      });
      if (!parsed.success) throw new EvidenceError(`dataset item ${i} is not a valid example record: ${parsed.error.issues[0]?.message}`, `examples.${i}`);
      records.push(parsed.data);
      progress.tick(performance.now() - started);
    }
  } finally {
    progress.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  return { records, promptTemplateHash: promptHash, accessLevel: level, seconds, examplesPerSecond: seconds > 0 ? records.length / seconds : Infinity };
}
