// Formatting of JSON-RPC values for display. No vscode import.
import { formatUnits } from 'ethers';
import { formatTokenUnits } from '../../mock-node/tokenKit/index';

export const ZERO_HASH = `0x${'0'.repeat(64)}`;

export function hexToBigInt(hex: unknown): bigint | undefined {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]*$/.test(hex)) return undefined;
  return hex === '0x' ? 0n : BigInt(hex);
}

export function hexToNumber(hex: unknown): number | undefined {
  const value = hexToBigInt(hex);
  return value === undefined ? undefined : Number(value);
}

/** `0x1a` → `26`; anything else unchanged. */
export function hexAsDecimal(hex: unknown): string {
  const value = hexToBigInt(hex);
  return value === undefined ? String(hex) : value.toString();
}

/** Unix seconds (hex) → `2026-11-22 05:30:41 UTC`. */
export function hexAsTime(hex: unknown): string {
  const seconds = hexToNumber(hex);
  if (seconds === undefined) return String(hex);
  return `${new Date(seconds * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`;
}

export function weiAsEth(hex: unknown): string {
  const value = hexToBigInt(hex);
  return value === undefined ? String(hex) : `${formatUnits(value, 18)} ETH`;
}

export function tokenUnits(value: bigint, decimals: number, symbol = ''): string {
  return `${formatTokenUnits(value, { decimals })}${symbol ? ` ${symbol}` : ''}`;
}

export function shortHex(hex: unknown, head = 6, tail = 4): string {
  if (typeof hex !== 'string') return String(hex);
  return hex.length <= head + tail + 3 ? hex : `${hex.slice(0, head)}…${hex.slice(-tail)}`;
}

/** How each block header field is shown: decimal for quantities, a date for the timestamp. */
export function headerFieldDisplay(field: string, value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'string') return JSON.stringify(value);
  switch (field) {
    case 'number': case 'gasLimit': case 'gasUsed': case 'size': case 'blobGasUsed': case 'excessBlobGas':
      return `${hexAsDecimal(value)}  (${value})`;
    case 'baseFeePerGas':
      return `${hexAsDecimal(value)} wei`;
    case 'timestamp':
      return `${hexAsTime(value)}  (${hexAsDecimal(value)})`;
    case 'difficulty':
      return hexAsDecimal(value);
    default:
      return value;
  }
}

/** How each field of a full transaction object is shown: ETH, wei, decimal or a date where it means that. */
export function transactionFieldDisplay(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || hexToBigInt(value) === undefined) return undefined;
  switch (field) {
    case 'value':
      return `${weiAsEth(value)}  (${value})`;
    case 'gasPrice': case 'maxFeePerGas': case 'maxPriorityFeePerGas': case 'maxFeePerBlobGas':
      return `${hexAsDecimal(value)} wei`;
    case 'blockTimestamp':
      return `${hexAsTime(value)}  (${hexAsDecimal(value)})`;
    case 'nonce': case 'gas': case 'transactionIndex': case 'type': case 'blockNumber': case 'chainId': case 'v': case 'yParity':
      return hexAsDecimal(value);
    default:
      return undefined;
  }
}

/** The fields shown under a block, in the seed's order (transactions are a node of their own). */
export const HEADER_FIELDS = [
  'number', 'hash', 'parentHash', 'timestamp', 'gasUsed', 'gasLimit', 'baseFeePerGas', 'miner', 'stateRoot',
  'transactionsRoot', 'receiptsRoot', 'logsBloom', 'size', 'extraData', 'mixHash', 'nonce', 'difficulty', 'sha3Uncles',
  'withdrawalsRoot', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'requestsHash',
] as const;
