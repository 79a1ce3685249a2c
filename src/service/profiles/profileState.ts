// A profile in memory: its creation snapshot plus every record of its log applied in order. Status, groups
// and the wire view are derived here, from the DESIGN.md lifecycle:
//   collecting  while n < minimum_n or any group is short;
//   serving     once every guarantee can be honoured;
//   stale       after a failed audit, a monitor alarm or a backend fingerprint change;
//               the next batch of examples moves it back (to collecting or serving).
import type { AuditResult, ExampleRecord, Profile } from "../../api/index.js";
import { minimumN, recommendedN } from "../engine/conformal.js";
import { ServiceError } from "../errors.js";
import { HeldExamples, type HeldBatch } from "./heldExamples.js";
import type { MonitorDefinition, MonitorState, ProfileMeta, ProfileRecord } from "./records.js";

/** recommended_n by alpha (a few alphas per service). */
const RECOMMENDED_N = new Map<number, number>();

/** Idempotency replies kept per profile (oldest forgotten first). */
const IDEMPOTENCY_MEMORY = 10_000;

export interface AuditEntry {
  result: AuditResult;
  method: string;
  alpha: number;
  version: number;
}

export class ProfileState {
  /** The examples, each batch as its JSON (heldExamples.ts); after a start from a checkpoint, only those after it. */
  private readonly held = new HeldExamples();
  /** Asked to read the examples before `base` from the store (set by the profile store). */
  onExamplesNeeded: ((state: ProfileState) => void) | undefined;
  version = 0;
  /**
   * Moves when a calibration rebuilt in the background replaces the earlier one a request at this version was
   * answered with (engine/rebuilds.ts): caches of calibrations are kept per version and epoch.
   */
  calibrationEpoch = 0;
  /** Sequence number of the last stored event applied (the store numbers every change of a profile). */
  seq = 0;
  fingerprint: string | undefined;
  staleReason: string | undefined;
  readonly audits: AuditEntry[] = [];
  readonly monitors = new Map<string, { definition: MonitorDefinition; state: MonitorState }>();
  readonly groupCounts = new Map<string, number>();
  readonly idempotency = new Map<string, { sha256: string; response: Profile }>();
  readonly minimumN: number;

  constructor(readonly meta: ProfileMeta) {
    this.fingerprint = meta.backend_fingerprint;
    this.minimumN = minimumN(meta.alpha);
  }

  /**
   * recommended_n at the profile's alpha (a scan of beta tails: 25 ms on a cold start, when it was made by every
   * profile read at a start, before the first one could answer), made when first asked for, once per alpha.
   * Throws for an alpha no profile of up to 10,000,000 examples serves (profileStore asks it at a creation).
   */
  get recommendedN(): number {
    let n = RECOMMENDED_N.get(this.meta.alpha);
    if (n === undefined) RECOMMENDED_N.set(this.meta.alpha, (n = recommendedN(this.meta.alpha)));
    return n;
  }

  get name(): string {
    return this.meta.name;
  }

  /** The Mondrian group of an example: its `group`, else `metadata[group_by]`. */
  groupOf(example: ExampleRecord): string | undefined {
    if (example.group !== undefined) return example.group;
    const by = this.meta.group_by;
    const value = by ? example.metadata?.[by] : undefined;
    return typeof value === "string" && value !== "" ? value : undefined;
  }

  /** Applies a stored event once: one already applied (seq at or below ours) changes nothing. */
  applyEvent(seq: number, record: ProfileRecord, held?: HeldBatch): void {
    if (seq <= this.seq) return;
    this.apply(record, held);
    this.seq = seq;
  }

  /** Applies a record; `held`: an examples record's batch as the store holds it (JSON made once, kept as is). */
  apply(record: ProfileRecord, held?: HeldBatch): void {
    switch (record.t) {
      case "examples": {
        this.held.append(record.examples, held);
        for (const example of record.examples) {
          const group = this.meta.group_by ? this.groupOf(example) : undefined;
          if (group !== undefined) this.groupCounts.set(group, (this.groupCounts.get(group) ?? 0) + 1);
        }
        this.version++;
        if (record.fingerprint !== undefined) this.fingerprint = record.fingerprint;
        else if (this.fingerprint === undefined) this.fingerprint = firstFingerprint(record.examples);
        this.staleReason = record.stale;
        for (const [id, state] of Object.entries(record.monitors ?? {})) {
          const monitor = this.monitors.get(id);
          if (monitor) monitor.state = state;
        }
        if (record.idempotency) {
          this.idempotency.set(record.idempotency.key, { sha256: record.idempotency.sha256, response: this.view() });
          if (this.idempotency.size > IDEMPOTENCY_MEMORY) this.idempotency.delete(this.idempotency.keys().next().value!);
        }
        break;
      }
      case "audit":
        this.audits.push({ result: record.result, method: record.method, alpha: record.alpha, version: record.version });
        if (record.result.result === "fail") {
          this.staleReason = `audit of ${record.result.date} failed: realized coverage ${record.result.realized_coverage.toFixed(4)} (CI ${record.result.ci.map((x) => x.toFixed(4)).join("–")}) below target ${record.result.target}`;
        }
        break;
      case "monitor":
        this.monitors.set(record.monitor.id, { definition: record.monitor, state: record.state });
        break;
    }
  }

  get n(): number {
    return this.held.n;
  }

  /** Whether every example is in memory (false after a start from a checkpoint, until they are read). */
  get examplesHeld(): boolean {
    return this.held.complete;
  }

  /**
   * Examples at positions from … to − 1 in stored order (clipped to n); a 503 while those before the checkpoint
   * are still in the store only.
   */
  examplesIn(from: number, to: number): ExampleRecord[] {
    if (!this.held.complete) this.needExamples();
    return this.held.slice(from, to);
  }

  /** The example at `position` (< n); a 503 when it is before the checkpoint and not read from the store yet. */
  exampleAt(position: number): ExampleRecord {
    if (position < this.held.first) this.needExamples();
    return this.held.at(position);
  }

  /** A state read from a checkpoint of `n` examples, the examples themselves left in the store. */
  startAt(n: number): void {
    this.held.startAt(n);
  }

  /** The batches before the checkpoint, read from the store: the profile holds all its examples again. */
  prependExamples(before: readonly HeldBatch[]): void {
    this.held.prepend(before);
  }

  private needExamples(): never {
    this.onExamplesNeeded?.(this);
    throw new ServiceError(503, "profile_loading", `Profile "${this.name}"'s examples are being read from the store (this query needs them, not only its calibration); retry after 1 s`, { retryAfter: 1 });
  }

  get collecting(): boolean {
    if (this.n < this.minimumN) return true;
    for (const count of this.groupCounts.values()) if (count < this.minimumN) return true;
    return false;
  }

  get status(): Profile["status"] {
    if (this.staleReason !== undefined) return "stale";
    return this.collecting ? "collecting" : "serving";
  }

  view(): Profile {
    // No prototype: a group named __proto__ is a key like any other, not the object's prototype.
    const groups: Profile["groups"] = Object.create(null) as Profile["groups"];
    const stale = this.staleReason !== undefined;
    for (const [group, n] of [...this.groupCounts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      groups[group] = { n, status: n < this.minimumN ? "collecting" : stale ? "stale" : "serving" };
    }
    const lastAudit = this.audits.at(-1)?.result ?? null;
    return {
      name: this.meta.name,
      version: this.version,
      method: this.meta.method,
      alpha: this.meta.alpha,
      n: this.n,
      minimum_n: this.minimumN,
      recommended_n: this.recommendedN,
      realized_coverage_ci: lastAudit ? lastAudit.ci : null,
      last_audit: lastAudit,
      backend_fingerprint: this.fingerprint ?? null,
      group_by: this.meta.group_by ?? null,
      groups,
      status: this.status,
      // Extensions (docs/service.md): why the profile is stale, its template hash and strictness.
      stale_reason: this.staleReason ?? null,
      prompt_template_hash: this.meta.prompt_template_hash ?? null,
      strict_fingerprint: this.meta.strict_fingerprint,
      set_pooling: this.meta.set_pooling ?? "exact",
      backend: this.meta.backend,
      created_at: this.meta.created_at,
    };
  }
}

/** `metadata.backend_fingerprint` of the first example that carries one. */
export function firstFingerprint(examples: readonly ExampleRecord[]): string | undefined {
  for (const example of examples) {
    const fp = example.metadata?.backend_fingerprint;
    if (typeof fp === "string") return fp;
  }
  return undefined;
}
