// What one message did, as tracers see it: its call frames (with their gas, input, output,
// errors and logs), the accounts it touched and the storage slots it read or wrote. Whatever
// executes a message (the native contracts today, the EVM later) reports into an ExecutionTracer;
// the tracers (callTracer, prestateTracer, the access list) read the finished TraceRecorder.
// Tracing is optional everywhere: an executor given no tracer does no work for it.
import type { Hex } from '../../encoding/hex';

export type CallType = 'CALL' | 'STATICCALL' | 'DELEGATECALL' | 'CALLCODE' | 'CREATE' | 'CREATE2';

export interface TracedLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  /** How many child frames of the frame that emitted it came before it (geth's `position`). */
  position: number;
  /** The log's index within the message. */
  index: number;
}

export interface TracedFrame {
  type: CallType;
  from: Hex;
  to: Hex;
  input: Hex;
  /** undefined for STATICCALL (it carries no value). */
  value?: bigint;
  /** Gas the frame was given. */
  gas: bigint;
  gasUsed: bigint;
  output?: Hex;
  /** e.g. `execution reverted`, `out of gas`. */
  error?: string;
  revertReason?: string;
  calls: TracedFrame[];
  logs: TracedLog[];
  /** Gas the parent spent before this call, when the frame's gas is derived from the parent's. */
  parentSpentBefore?: bigint;
}

export interface FrameStart {
  type: CallType;
  from: Hex;
  to: Hex;
  input: Hex;
  value?: bigint;
  /** Gas given to the frame, when the executor knows it as it enters (otherwise set on exit). */
  gas?: bigint;
}

export interface FrameEnd {
  gasUsed: bigint;
  output?: Hex;
  error?: string;
  revertReason?: string;
  /**
   * For a frame whose gas is only known at its end: the gas its parent spent before the call.
   * The frame then gets what the EVM forwards: all but one 64th of what the parent had left.
   */
  parentSpentBefore?: bigint;
  /** Gas given to the frame, when known directly. */
  gas?: bigint;
}

/** The hooks an executor calls. Every method is cheap; none is called when tracing is off. */
export interface ExecutionTracer {
  enter(start: FrameStart): TracedFrame;
  exit(frame: TracedFrame, end: FrameEnd): void;
  log(address: Hex, topics: readonly Hex[], data: Hex): void;
  /** An account an opcode touched (CALL*, EXTCODE*, BALANCE): for the access list and prestate. */
  account(address: Hex): void;
  /** A storage slot an SLOAD or SSTORE touched, under the address whose storage it is. */
  slot(address: Hex, slot: bigint): void;
  /** An account a creation made (prestate lists it; an access list does not). */
  creation?(address: Hex): void;
  /** Forgets everything recorded: the message runs again on another path (the EVM after the native one declined). */
  restart?(): void;
}

/** Gas a CALL-family opcode forwards when `available` is left: all but one 64th (EIP-150). */
export function allButOne64th(available: bigint): bigint {
  return available - available / 64n;
}

export class TraceRecorder implements ExecutionTracer {
  readonly root: TracedFrame[] = [];
  private readonly stack: TracedFrame[] = [];
  /** Accounts touched by opcodes, in first-touch order. */
  readonly accounts = new Set<Hex>();
  /** Slots touched per storage owner, in first-touch order. */
  readonly slots = new Map<Hex, Set<bigint>>();
  /** Accounts creations made. */
  readonly created = new Set<Hex>();
  private logCount = 0;

  restart(): void {
    this.root.length = 0;
    this.stack.length = 0;
    this.accounts.clear();
    this.slots.clear();
    this.created.clear();
    this.logCount = 0;
  }

  creation(address: Hex): void {
    this.created.add(address.toLowerCase());
  }

  enter(start: FrameStart): TracedFrame {
    const frame: TracedFrame = { ...start, gas: start.gas ?? 0n, gasUsed: 0n, calls: [], logs: [] };
    const parent = this.stack[this.stack.length - 1];
    (parent ? parent.calls : this.root).push(frame);
    this.stack.push(frame);
    if (parent && start.to !== '0x') this.account(start.to);
    return frame;
  }

  exit(frame: TracedFrame, end: FrameEnd): void {
    const index = this.stack.lastIndexOf(frame);
    if (index >= 0) this.stack.length = index;
    frame.gasUsed = end.gasUsed;
    frame.output = end.output;
    frame.error = end.error;
    frame.revertReason = end.revertReason;
    if (end.gas !== undefined) frame.gas = end.gas;
    frame.parentSpentBefore = end.parentSpentBefore;
    // A frame that fails keeps no logs (geth drops them with the frame's state).
    if (end.error !== undefined) dropLogs(frame);
  }

  log(address: Hex, topics: readonly Hex[], data: Hex): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame) return;
    frame.logs.push({ address, topics: [...topics], data, position: frame.calls.length, index: this.logCount++ });
  }

  account(address: Hex): void {
    this.accounts.add(address.toLowerCase());
  }

  slot(address: Hex, slot: bigint): void {
    const owner = address.toLowerCase();
    let set = this.slots.get(owner);
    if (!set) this.slots.set(owner, (set = new Set()));
    set.add(slot);
  }

  /** The outermost frame (the transaction's), once the message has run. */
  get top(): TracedFrame | undefined {
    return this.root[0];
  }

  /** Derives, top down, the gas of frames known only by what their parent spent before calling. */
  finish(): void {
    for (const frame of this.root) resolveGas(frame);
  }
}

function resolveGas(frame: TracedFrame): void {
  for (const child of frame.calls) {
    if (child.parentSpentBefore !== undefined) {
      const left = frame.gas - child.parentSpentBefore;
      child.gas = allButOne64th(left > 0n ? left : 0n);
    }
    resolveGas(child);
  }
}

function dropLogs(frame: TracedFrame): void {
  frame.logs = [];
  for (const child of frame.calls) dropLogs(child);
}
