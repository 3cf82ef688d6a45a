// Requests per second per profile, counted in one-second windows (a batch counts each of its
// requests). Over the limit the node answers like Infura: HTTP 429, a Retry-After header and a
// -32005 body with data {current_rps, allowed_rps, backoff_seconds}.
export interface RateDecision {
  ok: boolean;
  /** Requests counted in the current window, including this one. */
  current: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  private windowStart = 0;
  private count = 0;

  constructor(
    private readonly limit: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts `requests` requests; ok is false when that puts the window over the limit. */
  take(requests: number): RateDecision {
    const allowed = this.limit();
    if (allowed <= 0) return { ok: true, current: 0, retryAfterSeconds: 0 };
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count += requests;
    const retryAfterSeconds = Math.max(1, Math.ceil((this.windowStart + 1000 - now) / 1000));
    return { ok: this.count <= allowed, current: this.count, retryAfterSeconds };
  }
}

export const RATE_LIMIT_MESSAGE = 'request rate exceeded';
