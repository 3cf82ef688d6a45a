// The tracers of debug_traceTransaction, debug_traceCall and debug_traceBlockBy*: their options,
// and a recorded message turned into the answer each tracer gives.
import {
  callFrameJson,
  prestateJson,
  type CallTracerConfig,
  type PrestateConfig,
  type PrestateInput,
} from '../../execution/trace/index';
import { RpcError, invalidParams } from '../errors';

export const SERVED_TRACERS = ['callTracer', 'prestateTracer', 'noopTracer'] as const;
export type TracerName = (typeof SERVED_TRACERS)[number];

export interface TraceOptions {
  /** undefined: the default struct logger. */
  tracer?: TracerName;
  callConfig: CallTracerConfig;
  prestateConfig: PrestateConfig;
}

function flag(config: Record<string, unknown>, name: string, index: number): boolean | undefined {
  const value = config[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidParams(`invalid argument ${index}: tracerConfig.${name} must be a boolean`);
  return value;
}

export function parseTraceOptions(value: unknown, index: number): TraceOptions {
  if (value === undefined || value === null) return { callConfig: {}, prestateConfig: {} };
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`invalid argument ${index}: trace options must be an object`);
  const options = value as Record<string, unknown>;
  let tracer: TracerName | undefined;
  if (options.tracer !== undefined && options.tracer !== null) {
    if (typeof options.tracer !== 'string') throw invalidParams(`invalid argument ${index}: tracer must be a string`);
    if (!(SERVED_TRACERS as readonly string[]).includes(options.tracer)) {
      throw invalidParams(`unsupported tracer type: ${options.tracer}; this node serves ${SERVED_TRACERS.join(', ')} and the default struct logger (for calls that run no contract code)`);
    }
    tracer = options.tracer as TracerName;
  }
  const raw = options.tracerConfig ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidParams(`invalid argument ${index}: tracerConfig must be an object`);
  const config = raw as Record<string, unknown>;
  return {
    tracer,
    callConfig: { onlyTopCall: flag(config, 'onlyTopCall', index), withLog: flag(config, 'withLog', index) },
    prestateConfig: {
      diffMode: flag(config, 'diffMode', index),
      disableCode: flag(config, 'disableCode', index),
      disableStorage: flag(config, 'disableStorage', index),
    },
  };
}

/** The answer of the chosen tracer for one recorded message. */
export function traceResult(message: PrestateInput, options: TraceOptions): unknown {
  message.recorder.finish();
  const top = message.recorder.top;
  switch (options.tracer) {
    case 'noopTracer':
      return {};
    case 'callTracer':
      if (!top) throw new RpcError(-32000, 'the transaction did not execute (it was not valid in its block)');
      return callFrameJson(top, options.callConfig);
    case 'prestateTracer':
      return prestateJson(message, options.prestateConfig);
    case undefined: {
      if (!top) throw new RpcError(-32000, 'the transaction did not execute (it was not valid in its block)');
      // The struct logger lists EVM opcodes. A value transfer runs none, so its log is exact; for a
      // message that runs code (a contract's, or the native token's TypeScript) the node builds no log.
      if (message.to === null || message.pre.account(message.to).code !== '0x' || top.calls.length > 0 || message.recorder.slots.size > 0) {
        throw invalidParams(`the default struct logger is not served for a call that runs contract code (a contract's bytecode or the native token); use tracer callTracer or prestateTracer`);
      }
      return { failed: top.error !== undefined, gas: Number(top.gasUsed), returnValue: top.output ?? '0x', structLogs: [] };
    }
  }
}

