// JSON-RPC errors with the codes of JSON-RPC 2.0, EIP-1474 and geth. Method handlers throw
// RpcError (or let a ChainError through, which chainErrors.ts maps); the envelope turns it into an
// error object and never lets anything else escape. The HTTP status of a reply is decided by the
// envelope (handler.ts), never by an error.
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  InvalidInput: -32000,
  ResourceNotFound: -32001,
  ResourceUnavailable: -32002,
  TransactionRejected: -32003,
  MethodNotSupported: -32004,
  LimitExceeded: -32005,
  /** geth's code for history the node has pruned (EIP-4444): "pruned history unavailable". */
  PrunedHistory: 4444,
  /** geth's code for a reverted call. */
  ExecutionReverted: 3,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export function invalidParams(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message);
}

export function invalidInput(message: string, data?: unknown): RpcError {
  return new RpcError(ErrorCode.InvalidInput, message, data);
}
