// Per-key token buckets (429 with retry-after) and overload shedding (529): the first protects the service
// from one client, the second protects every client from a service that has fallen behind.
import { authThrottled, overloaded, rateLimited } from "./errors.js";

export interface RateLimitOptions {
  /** Sustained requests per second per key; 0 disables rate limiting. */
  requestsPerSecond: number;
  /** Bucket size: requests a key may send at once after being idle. */
  burst: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly options: RateLimitOptions) {}

  /** Takes one token for `principal`, or throws 429 with the seconds until one is available. */
  take(principal: string, now = performance.now()): void {
    const { requestsPerSecond: rate, burst } = this.options;
    if (rate <= 0) return;
    let bucket = this.buckets.get(principal);
    if (!bucket) {
      bucket = { tokens: burst, at: now };
      this.buckets.set(principal, bucket);
    }
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens < 1) throw rateLimited(Math.max(1, Math.ceil((1 - bucket.tokens) / rate)));
    bucket.tokens -= 1;
  }
}

/**
 * Failed authentications per client address: a bucket of `perMinute` failures refilled at that rate. Once it is
 * empty the address gets 429 before its key is even looked at (so that guessing learns nothing), and other
 * addresses are untouched.
 */
export class AuthThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly perMinute: number) {}

  private refilled(address: string, now: number): { tokens: number; at: number } | undefined {
    const bucket = this.buckets.get(address);
    if (!bucket) return undefined;
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
    bucket.at = now;
    return bucket;
  }

  /** Throws 429 while `address` has no failures left. */
  check(address: string, now = performance.now()): void {
    const bucket = this.refilled(address, now);
    if (bucket && bucket.tokens < 1) {
      throw authThrottled(Math.max(1, Math.ceil(((1 - bucket.tokens) / this.perMinute) * 60)), this.perMinute);
    }
  }

  /** Counts one failed authentication from `address`. */
  failed(address: string, now = performance.now()): void {
    let bucket = this.refilled(address, now);
    if (!bucket) {
      // Full buckets are the default: forget them, so that the map holds only addresses that failed lately.
      if (this.buckets.size >= 10_000) for (const [a] of this.buckets) if (this.refilled(a, now)!.tokens >= this.perMinute) this.buckets.delete(a);
      bucket = { tokens: this.perMinute, at: now };
      this.buckets.set(address, bucket);
    }
    bucket.tokens -= 1;
  }
}

export interface ShedOptions {
  /** Requests being processed at once above which new ones get 529. */
  maxInFlight: number;
  /** Event-loop lag (ms, smoothed) above which new requests get 529. */
  maxEventLoopLagMs: number;
}

export class LoadShedder {
  private inFlight = 0;
  private lagMs = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: ShedOptions) {
    // A timer that should fire every 50 ms measures how late it fires: that is the event-loop lag.
    const period = 50;
    let expected = performance.now() + period;
    this.timer = setInterval(() => {
      const now = performance.now();
      const lag = Math.max(0, now - expected);
      this.lagMs = this.lagMs * 0.7 + lag * 0.3;
      expected = now + period;
    }, period);
    this.timer.unref();
  }

  /** Admits a request (call `leave` when it is answered) or throws 529. */
  enter(): void {
    if (this.inFlight >= this.options.maxInFlight) throw overloaded(1, `${this.inFlight} requests in flight`);
    if (this.lagMs > this.options.maxEventLoopLagMs) throw overloaded(1, `event loop ${Math.round(this.lagMs)} ms behind`);
    this.inFlight++;
  }

  leave(): void {
    this.inFlight--;
  }

  /** Requests admitted and not yet answered. */
  get current(): number {
    return this.inFlight;
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
