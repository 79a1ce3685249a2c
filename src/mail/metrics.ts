// The mail service's Prometheus metrics (prom-client): requests by route and status with their latency, the
// queue's depth and every message's delivery state, read from the queue when scraped. GET /metrics.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { DELIVERY_STATES, isFinal } from "./lifecycle.js";
import type { MailQueue } from "./queue.js";

export class MailMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "calibkit_mail_http_requests_total", help: "Requests answered, by route and status.",
    labelNames: ["route", "method", "status"] as const, registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "calibkit_mail_http_request_duration_seconds", help: "Time from a request's headers to its answer, by route.",
    labelNames: ["route", "method"] as const, registers: [this.registry],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });

  constructor(queue: () => MailQueue | undefined) {
    collectDefaultMetrics({ register: this.registry, prefix: "calibkit_mail_" });
    new Gauge({
      name: "calibkit_mail_queue_depth", help: "Messages accepted and not yet in a final state (pending or deferred).",
      registers: [this.registry],
      collect() {
        let depth = 0;
        for (const [state, n] of queue()?.countsByState() ?? []) if (!isFinal(state as never)) depth += n;
        this.set(depth);
      },
    });
    new Gauge({
      name: "calibkit_mail_messages", help: "Messages by delivery state: the delivery outcomes (delivered, bounced, failed) and those still pending or deferred.",
      labelNames: ["state"] as const, registers: [this.registry],
      collect() {
        const counts = queue()?.countsByState() ?? new Map<string, number>();
        for (const state of DELIVERY_STATES) this.set({ state }, counts.get(state) ?? 0);
      },
    });
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.latency.observe({ route, method }, seconds);
  }

  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
