// Calls a cascade stage's backend for the engines (judge and route) and counts usage. Prompts are built by
// the engines; here: candidate probabilities (first-token log-probabilities at L1+, sample frequencies at L0),
// generations with a confidence (the probability of the output's first token at L1+, agreement of samples at
// L0), costs from the configuration, tokens estimated as characters / 4 (documented).
import type { ModelAdapter } from "../../adapters/index.js";
import { levelRank, type AccessLevel } from "../../api/index.js";
import type { StageCaller, Usage } from "../engine/types.js";
import { backendFailed } from "../errors.js";
import type { HumanQueue } from "../humanQueue.js";
import type { BackendRegistry, ConfiguredBackend } from "./backendRegistry.js";

const L0_SAMPLES = 8;
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Normalised probabilities from log-probabilities (local: the adapters' index loads the model engines). */
function softmax(logits: readonly number[]): Float64Array {
  const max = Math.max(...logits);
  const out = Float64Array.from(logits, (l) => Math.exp(l - max));
  const sum = out.reduce((s, v) => s + v, 0);
  for (let i = 0; i < out.length; i++) out[i]! /= sum;
  return out;
}

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

  private count(prompt: string, output = ""): void {
    this.usage.backend_calls++;
    this.usage.backend_tokens += estimateTokens(prompt) + estimateTokens(output);
  }

  stageName(stage: unknown, path: string): string {
    return this.registry.resolve(stage, path).config.name;
  }

  nominalCost(stage: unknown, path: string): number {
    return this.registry.resolve(stage, path).config.cost_cents_per_call;
  }

  async judge(stage: unknown, path: string, prompt: string, candidates: readonly string[]): Promise<Float64Array> {
    const { b, adapter } = await this.open(stage, path);
    if (levelRank(adapter.accessLevel) >= 1) {
      const logps = await call(b, "score the candidates", () => adapter.firstTokenLogProbs(prompt, candidates.map((c) => ` ${c}`)));
      this.count(prompt);
      return softmax(logps);
    }
    const samples = await call(b, "sample a judgement", () => adapter.sample(prompt, L0_SAMPLES, { seed: 0, maxTokens: 8 }));
    this.count(prompt, samples.join(""));
    // Add-one smoothing keeps every candidate possible when no sample names it.
    const counts = candidates.map((c) => 1 + samples.filter((s) => s.trim().toLowerCase().startsWith(c.toLowerCase())).length);
    const total = counts.reduce((s, v) => s + v, 0);
    return Float64Array.from(counts, (v) => v / total);
  }

  async generate(stage: unknown, path: string, prompt: string): Promise<{ name: string; output: string; confidence: number; costCents: number }> {
    const { b, adapter } = await this.open(stage, path);
    const [output = ""] = await call(b, "generate", () => adapter.sample(prompt, 1, { seed: 0, temperature: 0, maxTokens: b.config.max_tokens }));
    this.count(prompt, output);
    let confidence = 0;
    let calls = 1;
    if (output.trim() !== "" && levelRank(adapter.accessLevel) >= 1) {
      const [logp] = await call(b, "score its output", () => adapter.firstTokenLogProbs(prompt, [output]));
      this.count(prompt);
      calls++;
      confidence = Math.exp(logp ?? -Infinity);
    } else if (output.trim() !== "") {
      const samples = await call(b, "sample", () => adapter.sample(prompt, L0_SAMPLES, { seed: 1, maxTokens: b.config.max_tokens }));
      this.count(prompt, samples.join(""));
      calls++;
      confidence = samples.filter((s) => s.trim() === output.trim()).length / samples.length;
    }
    const tokens = estimateTokens(prompt) * calls + estimateTokens(output);
    const costCents = b.config.cost_cents_per_call * calls + (b.config.cost_cents_per_1k_tokens * tokens) / 1000;
    return { name: b.config.name, output, confidence, costCents };
  }

  level(stage: unknown, path: string): AccessLevel | undefined {
    return this.registry.resolve(stage, path).level ?? undefined;
  }

  async samples(stage: unknown, path: string, prompt: string, n: number): Promise<string[]> {
    const { b, adapter } = await this.open(stage, path);
    const out = await call(b, "sample", () => adapter.sample(prompt, n, { seed: 0, maxTokens: b.config.max_tokens }));
    this.count(prompt, out.join(""));
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
