// What the payer signs: shared by the lifecycle model (model.ts) and the evidence read from the chain
// (evidence.ts). No vscode import.

/** The seed's "Transfer authorization" table: what the payer signs. */
export interface AuthorizationMessage {
  from: string;
  to: string;
  /** Base units (6 decimals), as a decimal string. */
  value: string;
  /** Unix seconds. */
  validAfter: number;
  /** Unix seconds. */
  validBefore: number;
  /** bytes32 hex. */
  nonce: string;
}
