// Traces of message execution, shared by every executor (the native contracts, the EVM): the
// recorder executors report into, and the result shapes of callTracer, prestateTracer and
// eth_createAccessList built from it.
export * from './recorder';
export * from './callTracer';
export * from './prestateTracer';
export * from './accessList';
