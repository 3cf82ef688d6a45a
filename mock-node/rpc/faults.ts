// Faults on demand: added latency, a share of requests answered HTTP 429 or 503, and methods
// that time out (the request is held, then the connection is closed without an answer). Rules
// are keyed by profile and by method, with "*" for any; the most specific rule wins field by
// field. Set with --faults FILE, the `faults` option or mock_setFaults; mock_setFaults({}) clears.
//
//   { "public": { "eth_getLogs": { "latencyMs": [50, 200], "rate429": 0.2 } },
//     "*":      { "*": { "latencyMs": 20 }, "eth_call": { "timeoutMs": 3000 } },
//     "seed": 42 }
//
// With a seed, every draw (latency in a range, 429/503) comes from a generator started at that
// seed whenever the spec is set, so the same requests in the same order meet the same faults.
import { invalidParams } from './errors';

export interface FaultRule {
  /** Added latency in ms: fixed, or a [min, max] range drawn uniformly per request. */
  latencyMs?: number | [number, number];
  /** Share (0..1) of requests answered HTTP 429 with Retry-After. */
  rate429?: number;
  /** Share (0..1) of requests answered HTTP 503. */
  rate503?: number;
  /** Retry-After (seconds) sent with an injected 429 (default 1), and with a 503 when set. */
  retryAfterSeconds?: number;
  /** Hold the request this long, then close the connection without an answer. */
  timeoutMs?: number;
}

export type FaultProfileKey = 'public' | 'dedicated' | '*';
/** profile ("public" | "dedicated" | "*") -> method (or "*") -> rule; and an optional seed. */
export type FaultSpec = Partial<Record<FaultProfileKey, Record<string, FaultRule>>> & { seed?: number };

/** What the faults decide for one request (or the union of a batch's requests). */
export interface FaultDecision {
  delayMs: number;
  /** 429, 503, or 0 for none. */
  status: 0 | 429 | 503;
  retryAfterSeconds: number;
  /** >0: hold for this long, then hang up. */
  timeoutMs: number;
}

const RULE_KEYS = new Set(['latencyMs', 'rate429', 'rate503', 'retryAfterSeconds', 'timeoutMs']);
const MAX_MS = 10 * 60 * 1000;

function checkMs(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_MS) {
    throw invalidParams(`invalid faults: ${where} must be an integer number of ms from 0 to ${MAX_MS}`);
  }
  return value;
}

function checkShare(value: unknown, where: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw invalidParams(`invalid faults: ${where} must be a number from 0 to 1`);
  return value;
}

/** Validates a fault spec; throws -32602 naming the bad field. */
export function parseFaultSpec(raw: unknown): FaultSpec {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidParams('invalid faults: expected an object keyed by profile (public, dedicated, *)');
  const spec: FaultSpec = {};
  for (const [profile, methods] of Object.entries(raw as Record<string, unknown>)) {
    if (profile === 'seed') {
      if (typeof methods !== 'number' || !Number.isInteger(methods) || methods < 0 || methods > 0xffffffff) {
        throw invalidParams('invalid faults: seed must be an integer from 0 to 4294967295');
      }
      spec.seed = methods;
      continue;
    }
    if (profile !== 'public' && profile !== 'dedicated' && profile !== '*') {
      throw invalidParams(`invalid faults: unknown profile ${profile} (public, dedicated or *)`);
    }
    if (!methods || typeof methods !== 'object' || Array.isArray(methods)) throw invalidParams(`invalid faults: ${profile} must be an object keyed by method (or *)`);
    const table: Record<string, FaultRule> = {};
    for (const [method, rawRule] of Object.entries(methods as Record<string, unknown>)) {
      const where = `${profile}.${method}`;
      if (!rawRule || typeof rawRule !== 'object' || Array.isArray(rawRule)) throw invalidParams(`invalid faults: ${where} must be an object`);
      const r = rawRule as Record<string, unknown>;
      for (const key of Object.keys(r)) if (!RULE_KEYS.has(key)) throw invalidParams(`invalid faults: unknown field ${where}.${key}`);
      const rule: FaultRule = {};
      if (r.latencyMs !== undefined) {
        if (Array.isArray(r.latencyMs)) {
          if (r.latencyMs.length !== 2) throw invalidParams(`invalid faults: ${where}.latencyMs range must be [min, max]`);
          const min = checkMs(r.latencyMs[0], `${where}.latencyMs[0]`);
          const max = checkMs(r.latencyMs[1], `${where}.latencyMs[1]`);
          if (max < min) throw invalidParams(`invalid faults: ${where}.latencyMs range has max below min`);
          rule.latencyMs = [min, max];
        } else {
          rule.latencyMs = checkMs(r.latencyMs, `${where}.latencyMs`);
        }
      }
      if (r.rate429 !== undefined) rule.rate429 = checkShare(r.rate429, `${where}.rate429`);
      if (r.rate503 !== undefined) rule.rate503 = checkShare(r.rate503, `${where}.rate503`);
      if ((rule.rate429 ?? 0) + (rule.rate503 ?? 0) > 1) throw invalidParams(`invalid faults: ${where}: rate429 + rate503 must not exceed 1`);
      if (r.retryAfterSeconds !== undefined) {
        if (typeof r.retryAfterSeconds !== 'number' || !Number.isInteger(r.retryAfterSeconds) || r.retryAfterSeconds < 0 || r.retryAfterSeconds > 3600) {
          throw invalidParams(`invalid faults: ${where}.retryAfterSeconds must be an integer from 0 to 3600`);
        }
        rule.retryAfterSeconds = r.retryAfterSeconds;
      }
      if (r.timeoutMs !== undefined) rule.timeoutMs = checkMs(r.timeoutMs, `${where}.timeoutMs`);
      table[method] = rule;
    }
    spec[profile] = table;
  }
  return spec;
}

const NONE: FaultDecision = Object.freeze({ delayMs: 0, status: 0, retryAfterSeconds: 0, timeoutMs: 0 });

/** mulberry32: a small, fast 32-bit generator; plenty for drawing faults reproducibly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private spec: FaultSpec = {};
  private active = false;
  private random: () => number;

  constructor(
    initial: unknown = {},
    private readonly unseeded: () => number = Math.random,
  ) {
    this.random = unseeded;
    this.set(initial);
  }

  /** Replaces every rule ({} clears); a seed restarts the draws. Throws -32602 on a bad spec and keeps the old rules. */
  set(raw: unknown): FaultSpec {
    const spec = parseFaultSpec(raw);
    this.spec = spec;
    this.random = spec.seed === undefined ? this.unseeded : seededRandom(spec.seed);
    this.active = (['public', 'dedicated', '*'] as const).some((profile) => Object.keys(spec[profile] ?? {}).length > 0);
    return spec;
  }

  get(): FaultSpec {
    return this.spec;
  }

  /** True when any rule is set (the handler skips all fault work otherwise). */
  get enabled(): boolean {
    return this.active;
  }

  /** The rule that applies to one method on one profile: field by field, the most specific wins. */
  ruleFor(profile: string, method: string): FaultRule {
    const p = profile === 'internal' ? undefined : (profile as 'public' | 'dedicated');
    return {
      ...this.spec['*']?.['*'],
      ...this.spec['*']?.[method],
      ...(p ? this.spec[p]?.['*'] : undefined),
      ...(p ? this.spec[p]?.[method] : undefined),
    };
  }

  /** Draws the faults of one HTTP request (all methods of a batch: longest delay, any error, any timeout). */
  decide(profile: string, methods: readonly string[]): FaultDecision {
    if (!this.active || profile === 'internal') return NONE;
    const decision: FaultDecision = { delayMs: 0, status: 0, retryAfterSeconds: 0, timeoutMs: 0 };
    for (const method of methods) {
      const rule = this.ruleFor(profile, method);
      const latency = rule.latencyMs;
      if (latency !== undefined) {
        const ms = Array.isArray(latency) ? latency[0] + Math.round(this.random() * (latency[1] - latency[0])) : latency;
        if (ms > decision.delayMs) decision.delayMs = ms;
      }
      if (rule.timeoutMs !== undefined && rule.timeoutMs > decision.timeoutMs) decision.timeoutMs = rule.timeoutMs;
      if (decision.status === 0 && (rule.rate429 || rule.rate503)) {
        const draw = this.random();
        if (draw < (rule.rate429 ?? 0)) {
          decision.status = 429;
          decision.retryAfterSeconds = rule.retryAfterSeconds ?? 1;
        } else if (draw < (rule.rate429 ?? 0) + (rule.rate503 ?? 0)) {
          decision.status = 503;
          decision.retryAfterSeconds = rule.retryAfterSeconds ?? 0;
        }
      }
    }
    return decision;
  }
}
