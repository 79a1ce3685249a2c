// A stand-in for the evaluation service's monitor endpoints (spec section 4), for notifier tests that
// need to change alerts at will; the real service is used by notifyService.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Alert, AuditResult } from "../../src/api/index.js";

export interface FakeEvaluationService {
  /** Root to give EvaluationClient / `notify --service`: `http://127.0.0.1:PORT/api/v1`. */
  url: string;
  alerts: Map<string, Alert[]>;
  lastAudit: AuditResult | null;
  close(): Promise<void>;
}

export async function startFakeEvaluationService(profile: string): Promise<FakeEvaluationService> {
  const state = { alerts: new Map<string, Alert[]>(), lastAudit: null as AuditResult | null };
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const base = `/api/v1/calibration-profiles/${profile}`;
    if (path === base) {
      return json(res, 200, {
        name: profile, version: 1, method: "LAC", alpha: 0.1, n: 100, minimum_n: 19, recommended_n: 400,
        last_audit: state.lastAudit, groups: {}, status: "serving",
      });
    }
    if (path === `${base}/monitors`) {
      return json(res, 200, {
        monitors: [...state.alerts.keys()].map((id) => ({
          id, profile, type: "coverage", target: 0.9, false_alarm_rate: 0.05, labelled_sample_rate: 1,
          status: state.alerts.get(id)!.length > 0 ? "alarmed" : "active",
        })),
      });
    }
    const m = new RegExp(`^${base}/monitors/([^/]+)/alerts$`).exec(path);
    if (m && state.alerts.has(m[1]!)) return json(res, 200, { alerts: state.alerts.get(m[1]!) });
    json(res, 404, { error: "not_found", message: `no ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    get alerts() { return state.alerts; },
    get lastAudit() { return state.lastAudit; },
    set lastAudit(v) { state.lastAudit = v; },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function alert(detectedAt: string, eValue = 25): Alert {
  return {
    type: "coverage", severity: "high", n: 120, e_value: eValue, target: 0.9, false_alarm_rate: 0.05,
    detected_at: detectedAt, message: `Coverage below target: e-value ${eValue} exceeds 1/0.05`,
  };
}
