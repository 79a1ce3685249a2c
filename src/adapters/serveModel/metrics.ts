// serve-model's Prometheus metrics (prom-client): requests by route and status with their latency, tokens
// generated and the time spent generating them (tokens/s is their ratio, or rate() of the first), and slot use.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export const METRICS_PATH = "/metrics";

export class ServeModelMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "calibkit_serve_model_requests_total", help: "Requests answered, by route and status.",
    labelNames: ["route", "method", "status"] as const, registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "calibkit_serve_model_request_duration_seconds", help: "Time from a request's headers to the end of its answer, by route.",
    labelNames: ["route", "method"] as const, registers: [this.registry],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  });
  private readonly tokens = new Counter({
    name: "calibkit_serve_model_completion_tokens_total", help: "Tokens generated (completions and chat completions).", registers: [this.registry],
  });
  private readonly generating = new Counter({
    name: "calibkit_serve_model_generation_seconds_total", help: "Seconds spent generating them: tokens/s is the ratio of the two.", registers: [this.registry],
  });

  constructor(state: { slots: () => { total: number; busy: number }; inFlight: () => number }) {
    collectDefaultMetrics({ register: this.registry, prefix: "calibkit_serve_model_" });
    new Gauge({ name: "calibkit_serve_model_slots", help: "Sequences the model runs at once.", registers: [this.registry], collect() { this.set(state.slots().total); } });
    new Gauge({ name: "calibkit_serve_model_slots_busy", help: "Slots generating now.", registers: [this.registry], collect() { this.set(state.slots().busy); } });
    new Gauge({ name: "calibkit_serve_model_requests_in_flight", help: "Generation requests running or waiting for a slot.", registers: [this.registry], collect() { this.set(state.inFlight()); } });
  }

  /** The route label: a known path, never a model id. */
  static routeOf(path: string): string {
    return ["/health", "/metrics", "/v1/models", "/v1/completions", "/v1/chat/completions", "/apply-template"].includes(path) ? path
      : path.startsWith("/v1/models/") ? "/v1/models/:id" : "unmatched";
  }

  observe(path: string, method: string, status: number, seconds: number): void {
    const route = ServeModelMetrics.routeOf(path);
    this.requests.inc({ route, method, status: String(status) });
    this.latency.observe({ route, method }, seconds);
  }

  generated(tokens: number, seconds: number): void {
    this.tokens.inc(tokens);
    this.generating.inc(seconds);
  }

  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
