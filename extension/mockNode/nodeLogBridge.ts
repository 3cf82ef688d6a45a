// Carries the in-process mock node's log into the extension's LogOutputChannel: each entry at its
// own level, and the node's threshold following the level the user picks for the channel (so a
// channel at Info costs the node nothing per request, and Debug shows every JSON-RPC call).
import * as vscode from 'vscode';
import type { LogEntry, LogSink, LogThreshold, Logger } from '../../mock-node/index';

/** The node's threshold for a channel level; Trace and Debug both mean debug. */
export function thresholdForChannel(level: vscode.LogLevel): LogThreshold {
  switch (level) {
    case vscode.LogLevel.Off: return 'off';
    case vscode.LogLevel.Trace:
    case vscode.LogLevel.Debug: return 'debug';
    case vscode.LogLevel.Info: return 'info';
    case vscode.LogLevel.Warning: return 'warn';
    default: return 'error';
  }
}

function fieldText(value: unknown): string {
  if (typeof value === 'object' && value !== null) return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return String(value);
}

/** `[node] message key=value …`: the prefix tells node lines from the extension's own. */
export function nodeLogLine(entry: LogEntry): string {
  const fields = entry.fields ? Object.entries(entry.fields).map(([key, value]) => ` ${key}=${fieldText(value)}`).join('') : '';
  return `[node] ${entry.message}${fields}`;
}

export function channelSink(output: vscode.LogOutputChannel): LogSink {
  return (entry) => {
    const line = nodeLogLine(entry);
    switch (entry.level) {
      case 'debug': output.debug(line); break;
      case 'info': output.info(line); break;
      case 'warn': output.warn(line); break;
      default: output.error(line);
    }
  };
}

/** Keeps a running node's threshold in step with the channel's level; dispose when the node stops. */
export function followChannelLevel(output: vscode.LogOutputChannel, logger: Logger): vscode.Disposable {
  return output.onDidChangeLogLevel((level) => logger.setThreshold(thresholdForChannel(level)));
}
