// x402's wire vocabulary and the reading of its payloads and requests: pure, light (no node, no
// Express), so the VS Code extension imports it as it does the token kit. The facilitator beside
// it (mock-node/x402/) uses the same code.
export * from './protocol';
export * from './requests';
