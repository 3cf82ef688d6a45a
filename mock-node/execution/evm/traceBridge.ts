// What @ethereumjs/evm does, told to an ExecutionTracer as the native contracts tell it: one frame
// per message (beforeMessage / afterMessage), its type from the opcode that made it (the last step
// of its parent), the logs, storage slots and accounts its opcodes touch (step). Attached only
// while a traced message runs: an untraced run has no listeners, and the EVM then builds no step
// events at all.
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { EVMError } from '@ethereumjs/evm';
import { bytesToHex } from '@ethereumjs/util';
import type { Hex } from '../../encoding/hex';
import type { CallType, ExecutionTracer, TracedFrame } from '../trace/recorder';
import { memoryExpansionGas } from './stepHookGuard';

const CALL_TYPES: Record<number, CallType> = { 0xf0: 'CREATE', 0xf1: 'CALL', 0xf2: 'CALLCODE', 0xf4: 'DELEGATECALL', 0xf5: 'CREATE2', 0xfa: 'STATICCALL' };
const SLOAD = 0x54;
/** EIP-2200: an SSTORE with this much gas left or less runs out of gas whatever it costs. */
const SSTORE_SENTRY = 2300n;
const SENTRY_WORDS = 'out of gas: not enough gas for reentrancy sentry';
const SSTORE = 0x55;
const LOG0 = 0xa0;
const LOG4 = 0xa4;
/** Opcodes whose first operand is an account they touch (geth's prestate and access-list tracers). */
const ACCOUNT_ON_TOP = new Set([0x31 /* BALANCE */, 0x3b /* EXTCODESIZE */, 0x3c /* EXTCODECOPY */, 0x3f /* EXTCODEHASH */, 0xff /* SELFDESTRUCT */]);
/** CALL, CALLCODE, DELEGATECALL, STATICCALL: the account is the second operand. */
const ACCOUNT_SECOND = new Set([0xf1, 0xf2, 0xf4, 0xfa]);

/** How a frame's end reads in geth's tracers (the revert reason is decoded outside the EVM's bundle). */
export interface FrameFailure {
  error: string;
  output?: Hex;
}

/** geth's words for an EVM halt (revm-inspectors, which Anvil's tracers use, says the same). */
export function failureOf(error: EVMError | undefined, returnValue: Uint8Array): FrameFailure | undefined {
  if (!error) return undefined;
  if (error.error === EVMError.errorMessages.REVERT) {
    return { error: 'execution reverted', output: bytesToHex(returnValue) };
  }
  return { error: HALT_WORDS[error.error] ?? error.error };
}

const HALT_WORDS: Record<string, string> = {
  [EVMError.errorMessages.OUT_OF_GAS]: 'out of gas',
  [EVMError.errorMessages.CODESTORE_OUT_OF_GAS]: 'contract creation code storage out of gas',
  [EVMError.errorMessages.CODESIZE_EXCEEDS_MAXIMUM]: 'max code size exceeded',
  [EVMError.errorMessages.STACK_UNDERFLOW]: 'stack underflow',
  [EVMError.errorMessages.STACK_OVERFLOW]: 'stack limit reached',
  [EVMError.errorMessages.INVALID_JUMP]: 'invalid jump destination',
  [EVMError.errorMessages.INVALID_OPCODE]: 'invalid opcode',
  [EVMError.errorMessages.STATIC_STATE_CHANGE]: 'write protection',
  [EVMError.errorMessages.CREATE_COLLISION]: 'contract address collision',
  [EVMError.errorMessages.INSUFFICIENT_BALANCE]: 'insufficient balance for transfer',
  [EVMError.errorMessages.INVALID_BYTECODE_RESULT]: 'invalid code: must not begin with 0xef',
  [EVMError.errorMessages.INITCODE_SIZE_VIOLATION]: 'max initcode size exceeded',
};

function addressOf(word: bigint): Hex {
  return `0x${(word & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`;
}

function wordHex(word: bigint): Hex {
  return `0x${word.toString(16).padStart(64, '0')}`;
}

/** Memory bytes [offset, offset + size) as they will be read (zero past what is written). */
function memorySlice(memory: Uint8Array, offset: bigint, size: bigint): Hex {
  if (size === 0n) return '0x';
  const out = new Uint8Array(Number(size));
  const start = Number(offset);
  if (start < memory.length) out.set(memory.subarray(start, Math.min(memory.length, start + out.length)));
  return bytesToHex(out);
}

/**
 * Whether a LOG of `size` bytes at `offset` can be paid from `gasLeft`: its memory expansion and
 * data gas. One that cannot fails out of gas and logs nothing (its range may be 2^256 bytes: it is
 * never read).
 */
function logAffordable(memoryBytes: number, offset: bigint, size: bigint, gasLeft: bigint): boolean {
  return memoryExpansionGas(offset, size, BigInt(memoryBytes) / 32n) + 8n * size <= gasLeft;
}

interface OpenFrame {
  frame: TracedFrame;
  message: Message;
  /** The address whose storage and balance the frame runs with (a DELEGATECALL runs with its caller's). */
  address: Hex;
}

export class EvmTraceBridge {
  private readonly open: OpenFrame[] = [];
  /** The opcode of the last step, per depth: the CALL-family opcode that made the next message. */
  private readonly lastOpAt: number[] = [];
  /** Gas left before the last step, per depth (an SSTORE halting at 2,300 or less hit EIP-2200's sentry). */
  private readonly gasLeftAt: bigint[] = [];
  /** The outermost frame, left open for the machine to close with the transaction's gas. */
  top: TracedFrame | undefined;
  /** How the outermost frame failed, if it did. */
  topFailure: FrameFailure | undefined;

  constructor(
    private readonly tracer: ExecutionTracer,
    private readonly topGas: bigint,
  ) {}

  attach(evm: EVM): () => void {
    const before = (message: Message): void => this.beforeMessage(message);
    const after = (result: EVMResult): void => this.afterMessage(result);
    const step = (data: InterpreterStep): void => this.step(data);
    evm.events.on('beforeMessage', before);
    evm.events.on('afterMessage', after);
    evm.events.on('step', step);
    return () => {
      evm.events.off('beforeMessage', before);
      evm.events.off('afterMessage', after);
      evm.events.off('step', step);
    };
  }

  private beforeMessage(message: Message): void {
    const depth = message.depth;
    const parent = this.open[this.open.length - 1];
    const created = message.to === undefined;
    const type: CallType = depth === 0 ? (created ? 'CREATE' : 'CALL') : (CALL_TYPES[this.lastOpAt[depth - 1]] ?? (created ? 'CREATE' : 'CALL'));
    const from = parent ? parent.address : message.caller.toString();
    const codeAddress = created ? undefined : message.codeAddress.toString();
    const frame = this.tracer.enter({
      type,
      from,
      // A creation's address is known when it ends; the callee of DELEGATECALL / CALLCODE is the code's.
      to: created ? '0x' : (codeAddress as Hex),
      input: bytesToHex(message.data),
      value: type === 'STATICCALL' ? undefined : message.value,
      gas: depth === 0 ? this.topGas : message.gasLimit,
    });
    if (depth === 0) this.top = frame;
    this.open.push({ frame, message, address: created ? '0x' : message.to!.toString() });
  }

  private afterMessage(result: EVMResult): void {
    const entry = this.open.pop();
    if (!entry) return;
    const { frame, message } = entry;
    const exec = result.execResult;
    const sentry = exec.exceptionError?.error === EVMError.errorMessages.OUT_OF_GAS && this.lastOpAt[message.depth] === SSTORE && this.gasLeftAt[message.depth] <= SSTORE_SENTRY;
    this.lastOpAt.length = message.depth;
    this.gasLeftAt.length = message.depth;
    if (message.to === undefined || frame.type === 'CREATE' || frame.type === 'CREATE2') {
      const address = (result.createdAddress ?? message.to)?.toString();
      if (address) {
        frame.to = address;
        this.tracer.creation?.(address);
      }
    }
    let failure = failureOf(exec.exceptionError, exec.returnValue);
    if (failure && sentry) failure = { error: SENTRY_WORDS };
    // The outermost frame ends with the transaction's gas, which the machine knows (refund, floor).
    if (message.depth === 0) {
      this.topFailure = failure;
      return;
    }
    this.tracer.exit(frame, failure ? { gasUsed: exec.executionGasUsed, ...failure } : { gasUsed: exec.executionGasUsed, output: bytesToHex(exec.returnValue) });
  }

  private step(data: InterpreterStep): void {
    const op = data.opcode.code;
    const stack = data.stack;
    const n = stack.length;
    this.lastOpAt[data.depth] = op;
    this.gasLeftAt[data.depth] = data.gasLeft;
    const current = this.open[this.open.length - 1];
    // A creation's address is set once its message starts running.
    if (current && current.address === '0x') current.address = data.address.toString();
    if ((op === SLOAD || op === SSTORE) && n >= 1) {
      this.tracer.slot(data.address.toString(), stack[n - 1]);
    } else if (ACCOUNT_ON_TOP.has(op) && n >= 1) {
      this.tracer.account(addressOf(stack[n - 1]));
    } else if (ACCOUNT_SECOND.has(op) && n >= 2) {
      this.tracer.account(addressOf(stack[n - 2]));
    } else if (op >= LOG0 && op <= LOG4 && n >= 2 + (op - LOG0) && logAffordable(data.memory.length, stack[n - 1], stack[n - 2], data.gasLeft)) {
      const topics: Hex[] = [];
      for (let i = 0; i < op - LOG0; i++) topics.push(wordHex(stack[n - 3 - i]));
      this.tracer.log(data.address.toString(), topics, memorySlice(data.memory, stack[n - 1], stack[n - 2]));
    }
  }
}
