// The one table of what every answer guarantees (docs/guarantees.md is written from it, and a test holds the
// two equal): per query type and guarantee kind, the quantity controlled, its bound, whether it holds in
// expectation or with probability 1 − δ, over which draws, and the paper. Every guarantee sentence printed —
// the `statement` of a `guarantee` object, the CLI's line, the report's — is `guaranteeStatement` of a row.

/** How a bound holds: in expectation, with probability ≥ 1 − δ over the calibration draw, or as a probability of one event over calibration and test draws together. */
export const GUARANTEE_SENSES = ["in_expectation", "high_probability", "marginal", "none"] as const;
export type GuaranteeSense = (typeof GUARANTEE_SENSES)[number];

export interface GuaranteeRow {
  /** The query types the row applies to. */
  readonly types: readonly string[];
  /** The guarantee object's `kind`. */
  readonly kind: string;
  /** What is controlled; `{…}` names a value filled in by guaranteeStatement. */
  readonly quantity: string;
  /** The bound on it. */
  readonly bound: string;
  readonly sense: GuaranteeSense;
  /** Over which random draws the probability or expectation is taken. */
  readonly draws: string;
  /** What the guarantee is not, where users have read it wrongly. */
  readonly caveat?: string;
  readonly paper: string;
}

const SENSE_WORDS: Record<GuaranteeSense, string> = {
  in_expectation: "in expectation",
  high_probability: "with probability ≥ 1 − δ{confidence}",
  marginal: "as a probability",
  none: "",
};

export const GUARANTEE_TABLE: readonly GuaranteeRow[] = [
  {
    types: ["set"], kind: "coverage", quantity: "P(the true option is in the set)", bound: "≥ 1 − α{coverage}", sense: "marginal",
    draws: "the calibration examples and the test item together",
    caveat: "one calibration's coverage of future items is Beta-distributed around it, not ≥ it",
    paper: "split conformal prediction (Vovk et al. 2005; LAC: Sadinle et al. 2019; APS: Romano et al. 2020; RAPS: Angelopoulos et al. 2021)",
  },
  {
    types: ["set"], kind: "group_coverage", quantity: "P(the true option is in the set | the item's group)", bound: "≥ 1 − α{coverage}", sense: "marginal",
    draws: "the group's calibration examples and a test item of the group",
    paper: "Mondrian conformal prediction (Vovk et al. 2005)",
  },
  {
    types: ["interval"], kind: "coverage", quantity: "P(the true level is in the interval)", bound: "≥ 1 − α{coverage}", sense: "marginal",
    draws: "the calibration examples and the test item together",
    paper: "CQR on level indices (Romano et al. 2019) or ordinal APS (Lu et al. 2022)",
  },
  {
    types: ["judge"], kind: "coverage", quantity: "P(the better candidate is in a stage's set)", bound: "≥ 1 − α{coverage}", sense: "marginal",
    draws: "that stage's calibration examples and the test item together",
    caveat: "a singleton set wins, otherwise the next stage judges; the winner itself carries no guarantee",
    paper: "split conformal prediction per stage (Vovk et al. 2005)",
  },
  {
    types: ["belief"], kind: "calibration", quantity: "p_Y, the one of p0, p1 fitted with the label that occurs (p1 for yes, p0 for no),",
    bound: "is perfectly calibrated, E[1{yes} | p_Y] = p_Y,", sense: "in_expectation",
    draws: "the calibration examples and the test item",
    caveat: "the true probability of yes need not lie in [p0, p1], and `probability` = p1/(1 − p0 + p1) is a summary with no guarantee of its own",
    paper: "inductive Venn–Abers prediction (Vovk & Petej 2014)",
  },
  {
    types: ["gate"], kind: "risk", quantity: "P(auto_approve and fail) (with loss weights, E[loss·1{auto_approve}])", bound: "≤ target{target}", sense: "in_expectation",
    draws: "the calibration examples and the test query",
    caveat: "this is not P(fail | auto_approve); to control that share, use the fdr guarantee over a batch of queries",
    paper: "conformal risk control (Angelopoulos et al. 2022)",
  },
  {
    types: ["gate"], kind: "risk_high_probability", quantity: "P(auto_approve and fail | the calibration) (with loss weights, E[loss·1{auto_approve} | the calibration])", bound: "≤ target{target}", sense: "high_probability",
    draws: "the calibration examples",
    caveat: "this is not P(fail | auto_approve); to control that share, use the fdr guarantee over a batch of queries",
    paper: "Learn then Test with the Hoeffding–Bentkus p-value (Angelopoulos et al. 2021; Bates et al. 2021)",
  },
  {
    types: ["gate"], kind: "fdr", quantity: "FDR = E[fails among the auto-approved / max(1, auto-approved)] over the request's fdr queries at this target", bound: "≤ target{target}", sense: "in_expectation",
    draws: "the calibration examples and the batch of queries",
    caveat: "a batch of one query controls P(auto_approve and fail)",
    paper: "conformal selection with Benjamini–Hochberg (Jin & Candès 2023; Benjamini & Hochberg 1995)",
  },
  {
    types: ["claim"], kind: "factuality", quantity: "P(every retained claim is true)", bound: "≥ 1 − α{coverage}", sense: "marginal",
    draws: "the calibration examples, the test response and the tie-breaking draws",
    paper: "conformal factuality (Mohri & Hashimoto 2024)",
  },
  {
    types: ["route"], kind: "accuracy", quantity: "P(the served answer is correct | the calibration)", bound: "≥ 1 − α{coverage}", sense: "high_probability",
    draws: "the calibration examples",
    caveat: "the cheapest certified thresholds are served",
    paper: "Learn then Test with a Bonferroni union bound (Angelopoulos et al. 2021)",
  },
  {
    types: ["route"], kind: "cost_budget", quantity: "E[cost per query in cents | the calibration]", bound: "≤ target{target}", sense: "high_probability",
    draws: "the calibration examples",
    caveat: "accuracy is maximised among the certified thresholds, not guaranteed",
    paper: "Learn then Test with a Bonferroni union bound and Hoeffding's bound (Angelopoulos et al. 2021)",
  },
  {
    types: ["set", "interval", "judge", "belief", "gate", "claim", "route"], kind: "heuristic", quantity: "nothing", bound: "is guaranteed", sense: "none",
    draws: "",
    caveat: "the profile has too few calibration examples for the guarantee asked for (the guarantee's `reason` says how many it needs)",
    paper: "—",
  },
];

export interface GuaranteeValues {
  alpha?: number | undefined;
  target?: number | undefined;
  delta?: number | undefined;
}

/** 1 − x written with x's own decimals (1 − 0.7 is 0.30000000000000004 in floating point). */
function complement(x: number): string {
  const decimals = /\.(\d+)$/.exec(String(x))?.[1]?.length ?? 0;
  return String(Number((1 - x).toFixed(Math.min(20, decimals))));
}

/** The row of a query type's guarantee kind; undefined when the table has none. */
export function guaranteeRow(type: string, kind: string): GuaranteeRow | undefined {
  return GUARANTEE_TABLE.find((r) => r.kind === kind && r.types.includes(type));
}

function fill(text: string, v: GuaranteeValues): string {
  return text
    .replaceAll("{coverage}", v.alpha !== undefined ? ` = ${complement(v.alpha)}` : "")
    .replaceAll("{target}", v.target !== undefined ? ` = ${v.target}` : "")
    .replaceAll("{confidence}", v.delta !== undefined ? ` = ${complement(v.delta)}` : "");
}

/** The row as one sentence: quantity, bound, sense, draws, caveat and paper. */
export function rowStatement(row: GuaranteeRow, values: GuaranteeValues = {}): string {
  const sense = SENSE_WORDS[row.sense];
  const head = `${row.quantity} ${row.bound}${sense ? ` ${sense}` : ""}${row.draws ? ` over ${row.draws}` : ""}`;
  return fill(`${head}${row.caveat ? `; ${row.caveat}` : ""}${row.paper !== "—" ? ` [${row.paper}]` : ""}`, values);
}

/** The sentence of a query type's guarantee with its values filled in; the heuristic row's when the table has no row. */
export function guaranteeStatement(type: string, kind: string, values: GuaranteeValues = {}): string {
  return rowStatement(guaranteeRow(type, kind) ?? guaranteeRow(type, "heuristic")!, values);
}

/** The fields a `guarantee` object gets from the table: its sentence and sense. */
export function guaranteeWords(type: string, g: { kind?: string | undefined } & GuaranteeValues): { statement: string; sense: GuaranteeSense } {
  const row = guaranteeRow(type, g.kind ?? "heuristic") ?? guaranteeRow(type, "heuristic")!;
  return { statement: rowStatement(row, g), sense: row.sense };
}

/** docs/guarantees.md's table, as Markdown (the values left as symbols). */
export function guaranteeTableMarkdown(): string {
  const cell = (s: string) => fill(s, {}).replaceAll("|", "\\|");
  const lines = [
    "| query type | `kind` | quantity controlled | bound | how it holds | over which draws | not to be read as | paper |",
    "|---|---|---|---|---|---|---|---|",
    ...GUARANTEE_TABLE.map((r) => `| ${r.types.join(", ")} | \`${r.kind}\` | ${cell(r.quantity)} | ${cell(r.bound)} | ${cell(SENSE_WORDS[r.sense]) || "—"} (\`${r.sense}\`) | ${cell(r.draws) || "—"} | ${cell(r.caveat ?? "—")} | ${cell(r.paper)} |`),
  ];
  return lines.join("\n");
}
