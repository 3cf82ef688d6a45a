// The node's log: levels, plain lines or JSON lines, to stderr or to a sink the host supplies (the
// VS Code extension passes one that writes to its LogOutputChannel). What is logged is chosen so a
// log can be shared: method names, hashes, addresses and counts; never request params, raw
// transactions, signatures or the dedicated endpoint's key (redact.ts scrubs every entry).
import { scrubSecrets, scrubValue } from './redact';
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** The lowest level written; 'off' writes nothing. */
export type LogThreshold = LogLevel | 'off';

export interface LogEntry {
  time: string;
  level: LogLevel;
  message: string;
  fields?: Record<string, unknown>;
}

/** Receives every entry at or above the threshold instead of stderr. */
export type LogSink = (entry: LogEntry) => void;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Whether a level would be written: check before building costly fields. */
  enabled(level: LogLevel): boolean;
  /** Changes the threshold while the node runs. */
  setThreshold(threshold: LogThreshold): void;
  readonly threshold: LogThreshold;
}

function rank(threshold: LogThreshold): number {
  return threshold === 'off' ? LOG_LEVELS.length : LOG_LEVELS.indexOf(threshold);
}

function jsonValue(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** `message key=value …`, warnings and errors prefixed with their level. */
export function formatLogLine(entry: LogEntry): string {
  const fields = entry.fields && Object.keys(entry.fields).length
    ? ' ' + Object.entries(entry.fields).map(([k, v]) => `${k}=${typeof v === 'object' && v !== null ? JSON.stringify(v, jsonValue) : String(v)}`).join(' ')
    : '';
  return `${entry.level === 'info' ? '' : entry.level.toUpperCase() + ' '}${entry.message}${fields}`;
}

export function createLogger(options: {
  json: boolean;
  threshold: LogThreshold;
  sink?: LogSink;
  write?: (line: string) => void;
  /** Strings never to write (the dedicated key); see redact.ts for what else is hidden. */
  secrets?: readonly string[];
}): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const secrets = options.secrets ?? [];
  let threshold = options.threshold;
  let minimum = rank(threshold);
  const emit = (raw: LogEntry) => {
    // Every line, at every level, without secrets: library messages echo the values they were given.
    const entry: LogEntry = { ...raw, message: scrubSecrets(raw.message, secrets), ...(raw.fields ? { fields: scrubValue(raw.fields, secrets) as Record<string, unknown> } : {}) };
    if (options.sink) options.sink(entry);
    else if (options.json) write(JSON.stringify({ time: entry.time, level: entry.level, message: entry.message, ...entry.fields }, jsonValue));
    else write(formatLogLine(entry));
  };
  const log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (LOG_LEVELS.indexOf(level) < minimum) return;
    try {
      emit({ time: new Date().toISOString(), level, message, ...(fields ? { fields } : {}) });
    } catch {
      // A failing sink (a closed output channel) must never break a request.
    }
  };
  return {
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    enabled: (level) => LOG_LEVELS.indexOf(level) >= minimum,
    setThreshold(next) {
      if (next !== 'off' && !LOG_LEVELS.includes(next)) throw new Error(`log threshold must be one of ${LOG_LEVELS.join(', ')} or off, got ${String(next)}`);
      threshold = next;
      minimum = rank(next);
    },
    get threshold() {
      return threshold;
    },
  };
}
