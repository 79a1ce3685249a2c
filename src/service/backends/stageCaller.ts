// Calls a cascade stage's backend for the engines (judge and route) and counts usage. Prompts are built by
// the engines; here: candidate probabilities (first-token log-probabilities at L1+, sample frequencies at L0),
// generations with a confidence (the probability of the output's first token at L1+, agreement of samples at
// L0), costs from the configuration, tokens as the stage's server reports them (its `usage`; characters / 4
// for a server that reports none).
import type { ModelAdapter } from "../../adapters/index.js";
import type { AccessLevel } from "../../api/index.js";
import type { StageCaller, Usage } from "../engine/types.js";
import { backendFailed } from "../errors.js";
import type { HumanQueue } from "../humanQueue.js";
import type { BackendRegistry, ConfiguredBackend } from "./backendRegistry.js";
import { stageGeneration, stageJudgement } from "./stageCalls.js";

const estimateTokens = (text: string) => Math.ceil(text.length / 4);


async function call<T>(b: ConfiguredBackend, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Error && (err as { status?: number }).status === 422) throw err;
    throw backendFailed(`Backend "${b.config.name}" failed to ${what}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
}

/** One request's stage caller: a class, so that a request that calls no stage pays one allocation for it. */
class RequestStageCaller implements StageCaller {
  constructor(private readonly registry: BackendRegistry, private readonly humanQueue: HumanQueue, private readonly usage: Usage) {}

  private async open(stage: unknown, path: string): Promise<{ b: ConfiguredBackend; adapter: ModelAdapter }> {
    const { registry } = this;
    const b = registry.resolve(stage, path);
    registry.checkHint(b, (stage as { access_hint?: string } | null)?.access_hint);
    const adapter = await registry.adapterOf(b);
    registry.checkHint(b, (stage as { access_hint?: string } | null)?.access_hint);
    return { b, adapter };
  }

  /** One stage call of `calls` requests: the tokens the server reported, else an estimate from the text. */
  private count(calls: number, reported: number | undefined, estimate: number): number {
    this.usage.backend_calls += calls;
    const tokens = reported ?? estimate;
    this.usage.backend_tokens += tokens;
    return tokens;
  }

  stageName(stage: unknown, path: string): string {
    return this.registry.resolve(stage, path).config.name;
  }

  nominalCost(stage: unknown, path: string): number {
    return this.registry.resolve(stage, path).config.cost_cents_per_call;
  }

  async judge(stage: unknown, path: string, prompt: string, candidates: readonly string[]): Promise<Float64Array> {
    const { b, adapter } = await this.open(stage, path);
    const { probabilities, sampled, tokens } = await call(b, "score the candidates", () => stageJudgement(adapter, prompt, candidates));
    this.count(1, tokens, estimateTokens(prompt) + estimateTokens(sampled));
    return probabilities;
  }

  async generate(stage: unknown, path: string, prompt: string): Promise<{ name: string; output: string; confidence: number; costCents: number }> {
    const { b, adapter } = await this.open(stage, path);
    const g = await call(b, "generate", () => stageGeneration(adapter, prompt, b.config.max_tokens));
    const { output, confidence } = g;
    // Tokens as the stage's server reports them (its `usage`); a server that reports none is estimated at 4 characters a token.
    const tokens = this.count(g.calls, g.tokens, estimateTokens(prompt) * g.calls + estimateTokens(output) + estimateTokens(g.sampled));
    // One call of the stage costs its per-call price once, however many adapter calls it took (the route
    // calibration prices each stage reached at cost_cents_per_call).
    const costCents = b.config.cost_cents_per_call + (b.config.cost_cents_per_1k_tokens * tokens) / 1000;
    return { name: b.config.name, output, confidence, costCents };
  }

  level(stage: unknown, path: string): AccessLevel | undefined {
    return this.registry.resolve(stage, path).level ?? undefined;
  }

  async samples(stage: unknown, path: string, prompt: string, n: number): Promise<string[]> {
    const { b, adapter } = await this.open(stage, path);
    let reported: number | undefined;
    const onUsage = (u: { promptTokens: number; completionTokens: number }) => {
      reported = (reported ?? 0) + u.promptTokens + u.completionTokens;
    };
    const out = await call(b, "sample", () => adapter.sample(prompt, n, { seed: 0, maxTokens: b.config.max_tokens, onUsage }));
    this.count(1, reported, estimateTokens(prompt) + estimateTokens(out.join("")));
    return out;
  }

  async enqueueHuman(item: { profile: string; query: string; context: unknown; detail: Record<string, unknown> }): Promise<string> {
    const [id] = await this.humanQueue.enqueue([{ kind: "escalation", profile: item.profile, query: item.query, context: item.context, detail: item.detail }]);
    return id!;
  }
}

export function createStageCaller(registry: BackendRegistry, humanQueue: HumanQueue, usage: Usage): StageCaller {
  return new RequestStageCaller(registry, humanQueue, usage);
}
