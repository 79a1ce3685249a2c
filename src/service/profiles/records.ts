// What a profile's write-ahead log holds: one record per acknowledged change. Replaying the records in order
// rebuilds the profile exactly, including monitor e-process state (carried in the batch that moved it).
import type { AuditResult, Backend, ExampleRecord } from "../../api/index.js";
import type { EProcessState } from "../engine/conformal.js";

/** The profile as created: written once, as an atomic snapshot, before the 201. */
export interface ProfileMeta {
  name: string;
  backend: Backend;
  method: string;
  alpha: number;
  strict_fingerprint: boolean;
  group_by?: string | undefined;
  prompt_template_hash?: string | undefined;
  /** Which examples calibrate a set query; absent: "exact" (profiles created before the field). */
  set_pooling?: "exact" | "pooled" | "by_option_count" | undefined;
  /** From `backend.fingerprint` of the create request, when given. */
  backend_fingerprint?: string | undefined;
  created_at: string;
}

export interface MonitorDefinition {
  id: string;
  type: "coverage" | "risk";
  target: number;
  false_alarm_rate: number;
  labelled_sample_rate: number;
  use_judge_pseudo_labels: boolean;
  created_at: string;
  /** Examples in the profile when the monitor was created: it consumes only those after. */
  start_n: number;
}

export interface AlertRecord {
  type: string;
  severity: string;
  n: number;
  e_value: number;
  target: number;
  false_alarm_rate: number;
  detected_at: string;
  message: string;
}

/** A monitor's e-process (the conformal engine's state object, JSON as is) and the alerts it raised. */
export interface MonitorState {
  eprocess: EProcessState;
  status: "active" | "alarmed";
  alerts: AlertRecord[];
}

export interface ExamplesRecord {
  t: "examples";
  at: string;
  examples: ExampleRecord[];
  idempotency?: { key: string; sha256: string } | undefined;
  /** Set when this batch brought a different backend fingerprint on a non-strict profile. */
  fingerprint?: string | undefined;
  /** Why this batch left the profile stale (fingerprint change, monitor alarm); absent: not stale. */
  stale?: string | undefined;
  /** Monitor states after consuming this batch (only monitors it moved). */
  monitors?: Record<string, MonitorState> | undefined;
}

export interface AuditRecord {
  t: "audit";
  result: AuditResult;
  /** The method and alpha audited, for the history. */
  method: string;
  alpha: number;
  version: number;
}

export interface MonitorRecord {
  t: "monitor";
  monitor: MonitorDefinition;
  state: MonitorState;
}

export type ProfileRecord = ExamplesRecord | AuditRecord | MonitorRecord;
