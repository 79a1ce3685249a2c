// What each query type's driver gives the typed run: its items from the dataset, each item's calibration record
// and query (evidence from the local model, or from the cascade stages), and the report section that measures
// its guarantee on the test split.
import type { ModelAdapter } from "../../adapters/index.js";
import type { AccessLevel, Answer, ExampleRecord } from "../../api/index.js";
import type { Dataset } from "../../datasets/index.js";
import type { QuerySection } from "../../report/index.js";
import type { EvidenceCache } from "../../store/index.js";

export const TYPED_QUERIES = ["belief", "gate", "claim", "judge", "route"] as const;
export type TypedQuery = (typeof TYPED_QUERIES)[number];

/** Where a typed run's rows go, and what it has read and computed so far. */
export interface RowCache {
  cache: EvidenceCache | null;
  /** The model as the user named it (`calibkit cache list`). */
  model: string;
  hits: number;
  computed: number;
  /** Of the computed rows, those a stopped run was computing when it was killed. */
  redone: number;
}

/** A cascade stage served by an OpenAI-compatible server (`calibkit serve-model`), as configured for the service. */
export interface Stage {
  name: string;
  url: string;
  /** Cents per call of the stage (the service's `cost_cents_per_call`). */
  costPerCall: number;
  /** Most tokens a route stage generates. */
  maxTokens: number;
  adapter: ModelAdapter;
}

export interface DriverContext {
  adapter: ModelAdapter;
  accessLevel: AccessLevel;
  stages: readonly Stage[];
  alpha: number;
  /** Gate: the guarantee, its target and δ; route: the guarantee and its budget in cents. */
  guarantee: string | undefined;
  target: number | undefined;
  delta: number | undefined;
  /** Gate fdr: test queries sent per request, each request one Benjamini–Hochberg batch (default 1). */
  batchSize?: number | undefined;
  /** The evidence cache every model output goes through, and its counts. */
  rows: RowCache;
  /** Called after each item's evidence, with the number done. */
  progress: (done: number) => void;
  /** Opens another model (a free-form run's judge), its calls counted with the run's and disposed with it. */
  openModel?: (pathOrUrl: string) => Promise<ModelAdapter>;
}

/** One item, ready for the service: its calibration record and the query (without its profile). */
export interface Prepared {
  id: string;
  record: ExampleRecord;
  context: unknown;
  query: Record<string, unknown>;
  /** What the item's answer is judged against (the gold label, the labelled claims, the reference). */
  truth: unknown;
}

/** What summarise reads: the run's context, the calibration examples' count and the calibration items. */
export type SummaryContext = Pick<DriverContext, "alpha" | "guarantee" | "target" | "delta" | "batchSize" | "stages"> & {
  calibrationN: number;
  calibration: readonly Prepared[];
};

export interface Driver {
  type: TypedQuery;
  /** Dataset kinds it reads; the first is the one `--query-type` defaults from. */
  kinds: readonly Dataset["kind"][];
  /** True when the query's evidence is the client's (every type but route). */
  clientEvidence: boolean;
  /** True when the type needs `--stage` servers. */
  needsStages: boolean;
  prepare(items: readonly Dataset["items"][number][], ctx: DriverContext): Promise<Prepared[]>;
  /** Fields of the profile beyond name, backend and alpha (a free-form run's prompt_template_hash). */
  profileFields?(ctx: DriverContext): Promise<Record<string, unknown>>;
  /** After the test split is answered: what the driver writes beside the report (items.jsonl). */
  finish?(outcomes: readonly { prepared: Prepared; answer: Answer }[], prepared: readonly Prepared[]): Promise<void>;
  /** The measured guarantee and the rates of the test split. */
  summarise(outcomes: readonly { prepared: Prepared; answer: Answer }[], ctx: SummaryContext): QuerySection;
}
