// geth's callTracer result from a recorded message: one object per frame, children in `calls`,
// logs (with `withLog`) in the frame that emitted them, key order as Anvil answers.
import { quantity, type Hex } from '../../encoding/hex';
import { decodeRevertReason } from '../execute';
import type { TracedFrame } from './recorder';

export interface CallTracerConfig {
  onlyTopCall?: boolean;
  withLog?: boolean;
}

export interface CallLogJson {
  address: Hex;
  topics: Hex[];
  data: Hex;
  position: Hex;
  index: Hex;
}

export interface CallFrameJson {
  from: Hex;
  gas: Hex;
  gasUsed: Hex;
  to: Hex;
  input: Hex;
  output?: Hex;
  error?: string;
  revertReason?: string;
  calls?: CallFrameJson[];
  logs?: CallLogJson[];
  value?: Hex;
  type: string;
}

const PANIC_SELECTOR = '0x4e487b71';

/** Solidity's Panic(uint256) codes in geth's words (Anvil's callTracer says the same). */
const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

function panicReason(output: Hex): string | undefined {
  if (!output.startsWith(PANIC_SELECTOR) || output.length !== 2 + 8 + 64) return undefined;
  const code = BigInt(`0x${output.slice(10)}`);
  return PANIC_REASONS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`;
}

export function callFrameJson(frame: TracedFrame, config: CallTracerConfig = {}): CallFrameJson {
  const json: CallFrameJson = {
    from: frame.from,
    gas: quantity(frame.gas),
    gasUsed: quantity(frame.gasUsed),
    to: frame.to,
    input: frame.input,
  } as CallFrameJson;
  if (frame.output !== undefined && frame.output !== '0x') json.output = frame.output;
  if (frame.error !== undefined) json.error = frame.error;
  // The EVM's frames carry the revert data only: the reason is read from it here, as geth does.
  const revertReason = frame.revertReason ?? (frame.error === 'execution reverted' && frame.output ? (decodeRevertReason(frame.output) ?? panicReason(frame.output)) : undefined);
  if (revertReason !== undefined) json.revertReason = revertReason;
  if (!config.onlyTopCall && frame.calls.length > 0) json.calls = frame.calls.map((child) => callFrameJson(child, config));
  if (config.withLog && frame.logs.length > 0) {
    json.logs = frame.logs.map((log) => ({ address: log.address, topics: log.topics, data: log.data, position: quantity(log.position), index: quantity(log.index) }));
  }
  if (frame.value !== undefined) json.value = quantity(frame.value);
  json.type = frame.type;
  return json;
}
