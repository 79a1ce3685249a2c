// The injection and delivery lifecycles (docs/mail.md "Lifecycles"): one delivery state per message,
// the injection state derived from it, and the batch-level summary of a send's messages.

/**
 * pending → delivered | deferred | bounced | failed; deferred → delivered | deferred | bounced | failed.
 * delivered, bounced and failed are final.
 */
export const DELIVERY_STATES = ["pending", "deferred", "delivered", "bounced", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** queued → injected | failed: whether the engine has taken the message. */
export type InjectionState = "queued" | "injected" | "failed";

export const isFinal = (s: DeliveryState): boolean => s === "delivered" || s === "bounced" || s === "failed";

const NEXT: Record<DeliveryState, readonly DeliveryState[]> = {
  pending: ["delivered", "deferred", "bounced", "failed"],
  deferred: ["delivered", "deferred", "bounced", "failed"],
  delivered: [],
  bounced: [],
  failed: [],
};

export const canMove = (from: DeliveryState, to: DeliveryState): boolean => NEXT[from].includes(to);

export function injectionOf(s: DeliveryState): InjectionState {
  if (s === "delivered") return "injected";
  if (s === "bounced" || s === "failed") return "failed";
  return "queued";
}

export type StateCounts = Record<DeliveryState, number>;

export const emptyCounts = (): StateCounts => ({ pending: 0, deferred: 0, delivered: 0, bounced: 0, failed: 0 });

export interface SendSummary {
  /** `queued` while any message is unfinished, then `completed` (all delivered) or `completed_with_failures`. */
  status: "queued" | "completed" | "completed_with_failures";
  injection_status: InjectionState | "partial";
  delivery_status: DeliveryState | "partial";
}

/**
 * One state for a whole send: the common state when all messages share it; while unfinished,
 * `deferred` if any message waits for a retry, else `pending`; once all are final but differ, `partial`.
 */
export function summarize(c: StateCounts): SendSummary {
  const total = c.pending + c.deferred + c.delivered + c.bounced + c.failed;
  const unfinished = c.pending + c.deferred;
  const single = DELIVERY_STATES.find((s) => c[s] === total);
  let delivery: SendSummary["delivery_status"];
  if (single) delivery = single;
  else if (unfinished > 0) delivery = c.deferred > 0 ? "deferred" : "pending";
  else delivery = "partial";

  let injection: SendSummary["injection_status"];
  if (unfinished > 0) injection = "queued";
  else if (c.delivered === total) injection = "injected";
  else if (c.delivered === 0) injection = "failed";
  else injection = "partial";

  const status = unfinished > 0 ? "queued" : c.delivered === total ? "completed" : "completed_with_failures";
  return { status, injection_status: injection, delivery_status: delivery };
}
