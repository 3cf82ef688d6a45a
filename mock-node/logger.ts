// The node's log: plain lines or JSON lines, to a stream, silent when quiet.
export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(options: { json: boolean; quiet: boolean; write?: (line: string) => void }): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (options.quiet) return;
    if (options.json) {
      write(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
    } else {
      const extra = fields && Object.keys(fields).length ? ' ' + Object.entries(fields).map(([k, v]) => `${k}=${String(v)}`).join(' ') : '';
      write(`${level === 'info' ? '' : level.toUpperCase() + ' '}${message}${extra}`);
    }
  };
  return {
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
  };
}
