// The service's Prometheus metrics (prom-client), one registry per running service: requests by route and
// status, their latency, requests in flight, requests shed and why, and per profile its n, its status and
// each monitor's e-value, read from the profiles when scraped. Served at GET /metrics (docs/service.md).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { ProfileState } from "../profiles/profileState.js";

export const METRICS_PATH = "/metrics";

/** Why a request was refused before its handler: each is counted in calibkit_http_shed_total. */
export type ShedReason = "rate_limited" | "overloaded" | "auth_throttled";

const PROFILE_STATUSES = ["collecting", "serving", "stale"] as const;

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "calibkit_http_requests_total", help: "Requests answered, by route (the endpoint's pattern), method and status.",
    labelNames: ["route", "method", "status"] as const, registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "calibkit_http_request_duration_seconds", help: "Time from a request's headers to its answer, by route and method.",
    labelNames: ["route", "method"] as const, registers: [this.registry],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  private readonly shed = new Counter({
    name: "calibkit_http_shed_total", help: "Requests refused before their handler: rate_limited (429 per key), auth_throttled (429 per address), overloaded (529).",
    labelNames: ["reason"] as const, registers: [this.registry],
  });

  constructor(options: { inFlight: () => number; profiles: () => readonly ProfileState[] }) {
    collectDefaultMetrics({ register: this.registry, prefix: "calibkit_" });
    new Gauge({
      name: "calibkit_http_requests_in_flight", help: "Requests whose body is in and whose answer is not yet sent.",
      registers: [this.registry], collect() { this.set(options.inFlight()); },
    });
    new Gauge({
      name: "calibkit_profile_examples", help: "Calibration examples of each profile (n).", labelNames: ["profile"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const p of options.profiles()) this.set({ profile: p.name }, p.n);
      },
    });
    new Gauge({
      name: "calibkit_profile_status", help: "1 for each profile's current status (collecting, serving, stale), 0 for the others.",
      labelNames: ["profile", "status"] as const, registers: [this.registry],
      collect() {
        this.reset();
        for (const p of options.profiles()) for (const s of PROFILE_STATUSES) this.set({ profile: p.name, status: s }, p.status === s ? 1 : 0);
      },
    });
    new Gauge({
      name: "calibkit_monitor_e_value", help: "The e-value of each monitor's e-process (an alarm at 1/false_alarm_rate).",
      labelNames: ["profile", "monitor"] as const, registers: [this.registry],
      collect() {
        this.reset();
        for (const p of options.profiles()) {
          for (const [id, m] of p.monitors) this.set({ profile: p.name, monitor: id }, Math.min(Math.exp(m.state.eprocess.logE), Number.MAX_VALUE));
        }
      },
    });
  }

  /** One answered request; `route` is the endpoint's pattern (a path parameter never becomes a label value). */
  observe(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.latency.observe({ route, method }, seconds);
  }

  refused(reason: ShedReason): void {
    this.shed.inc({ reason });
  }

  /** The text format a scrape gets, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
