// What the explorer says about OP Stack chains' own fields (Base, the mock node's --chain base,
// any OP Stack endpoint): a deposit transaction (type 0x7e) by what it is, the L1-attributes
// deposit with its L1 origin; and a transaction's L1 data fee beside its L2 fee, and the total the
// sender paid. Read from the JSON any such endpoint answers; pure.
import { formatUnits } from 'ethers';
import type { FeeBreakdown } from './chainData';

export const DEPOSIT_TYPE = '0x7e';
/** setL1BlockValuesEcotone() and setL1BlockValuesIsthmus(): both pack the L1 block number at bytes 28..36. */
const L1_ATTRIBUTES_SELECTORS: Record<string, number> = { '0x440a5e20': 164, '0x098999be': 176 };

function big(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) return undefined;
  return BigInt(value);
}

/** The L1 origin's block number of an L1-attributes deposit's input, or undefined for any other input. */
export function l1AttributesBlock(input: unknown): bigint | undefined {
  if (typeof input !== 'string' || input.length < 10) return undefined;
  const size = L1_ATTRIBUTES_SELECTORS[input.slice(0, 10).toLowerCase()];
  if (size === undefined || (input.length - 2) / 2 !== size) return undefined;
  return BigInt(`0x${input.slice(2 + 28 * 2, 2 + 36 * 2)}`);
}

/** A deposit's one-line summary: "L1 attributes, L1 block N", or what a user deposit mints and sends. */
export function depositSummary(tx: Record<string, unknown>): string {
  const l1Block = l1AttributesBlock(tx.input ?? tx.data);
  if (l1Block !== undefined) return `L1 attributes, L1 block ${l1Block}`;
  const mint = big(tx.mint) ?? 0n;
  const value = big(tx.value) ?? 0n;
  const parts = ['deposit from L1'];
  if (mint > 0n) parts.push(`mints ${formatUnits(mint, 18)} ETH`);
  if (value > 0n) parts.push(`sends ${formatUnits(value, 18)} ETH`);
  return parts.join(' · ');
}

/** A receipt's fees on an OP Stack chain (gasUsed × effectiveGasPrice, l1Fee, their sum); undefined without an l1Fee. */
export function feeBreakdown(receipt: Record<string, unknown>): FeeBreakdown | undefined {
  const l1Fee = big(receipt.l1Fee);
  const gasUsed = big(receipt.gasUsed);
  const price = big(receipt.effectiveGasPrice);
  if (l1Fee === undefined || gasUsed === undefined || price === undefined) return undefined;
  const l2Fee = gasUsed * price;
  return { l2Fee, l1Fee, total: l2Fee + l1Fee };
}

/** "L2 fee 0.000021 ETH · L1 fee 0.0000016 ETH · total 0.0000226 ETH" */
export function feeText(fees: FeeBreakdown): string {
  const eth = (wei: bigint) => `${formatUnits(wei, 18)} ETH`;
  return `L2 fee ${eth(fees.l2Fee)} · L1 fee ${eth(fees.l1Fee)} · total ${eth(fees.total)}`;
}
