// Chain presets (--chain base, --chain base-sepolia): pure data about the chain a node imitates.
// The option resolver takes the chain id and the token from here; the block builder takes the
// block rules (an OP Stack chain's L1-attributes deposit and L1 fee). Nothing else branches on the
// chain. No preset (the default chain) means a plain chain with none of this.
// This module imports only the ground floor, so chain/ and execution/ may both read it.
import type { Hex } from '../encoding/hex';

/** The OP Stack's predeploys the node places at genesis (their code: opStackBytecode.ts). */
export const OP_STACK_PREDEPLOYS = {
  gasPriceOracle: '0x420000000000000000000000000000000000000f',
  sequencerFeeVault: '0x4200000000000000000000000000000000000011',
  l1Block: '0x4200000000000000000000000000000000000015',
  baseFeeVault: '0x4200000000000000000000000000000000000019',
  l1FeeVault: '0x420000000000000000000000000000000000001a',
  operatorFeeVault: '0x420000000000000000000000000000000000001b',
} as const satisfies Record<string, Hex>;

/**
 * The L1 the node simulates for an OP Stack chain: an L1 block every 12 seconds, numbered from an
 * anchor, with the fee parameters the chain's SystemConfig sets (scalars, batcher).
 */
export interface SimulatedL1 {
  /** An L1 block number and its timestamp (Unix seconds): the origin advances one block per 12 s from there. */
  anchorNumber: bigint;
  anchorTimestamp: bigint;
  /** L1 base fee in wei; each L1 block's varies around it (deterministic, from the block number). */
  baseFee: bigint;
  /** L1 blob base fee in wei. */
  blobBaseFee: bigint;
  /** The SystemConfig's Ecotone scalars, as the L1-attributes deposit carries them. */
  baseFeeScalar: number;
  blobBaseFeeScalar: number;
  /** The batcher's address as a 32-byte word (the deposit's batcherHash). */
  batcherHash: Hex;
  /** Isthmus's operator fee: gasUsed × operatorFeeScalar / 10⁶ + operatorFeeConstant (wei). */
  operatorFeeScalar: number;
  operatorFeeConstant: bigint;
}

export interface OpStackRules {
  l1: SimulatedL1;
  /** Gas limit of the L1-attributes deposit (the spec's 1,000,000). */
  l1InfoGas: bigint;
}

export interface ChainPreset {
  /** The --chain value. */
  name: ChainName;
  /** What the explorer and the banner call it. */
  label: string;
  chainId: bigint;
  /** USDC on this chain: its address and EIP-712 domain (as x402's network table has them). */
  token: { address: Hex; name: string; version: string; symbol: string };
  /** The x402 network id (CAIP-2). */
  network: string;
  opStack: OpStackRules;
}

export const CHAIN_NAMES = ['base', 'base-sepolia'] as const;
export type ChainName = (typeof CHAIN_NAMES)[number];

const batcher = (address: string): Hex => `0x${'00'.repeat(12)}${address.slice(2).toLowerCase()}`;

const PRESETS: readonly ChainPreset[] = [
  {
    name: 'base',
    label: 'Base',
    chainId: 8453n,
    token: { address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', name: 'USD Coin', version: '2', symbol: 'USDC' },
    network: 'eip155:8453',
    opStack: {
      l1: {
        anchorNumber: 23_000_000n,
        anchorTimestamp: 1_753_166_000n,
        baseFee: 1_000_000_000n,
        blobBaseFee: 1n,
        baseFeeScalar: 2269,
        blobBaseFeeScalar: 1_055_762,
        batcherHash: batcher('0x5050f69a9786f081509234f1a7f4684b5e5b76c9'),
        operatorFeeScalar: 0,
        operatorFeeConstant: 0n,
      },
      l1InfoGas: 1_000_000n,
    },
  },
  {
    name: 'base-sepolia',
    label: 'Base Sepolia',
    chainId: 84532n,
    token: { address: '0x036cbd53842c5426634e7929541ec2318f3dcf7e', name: 'USDC', version: '2', symbol: 'USDC' },
    network: 'eip155:84532',
    opStack: {
      l1: {
        anchorNumber: 8_800_000n,
        anchorTimestamp: 1_753_166_000n,
        baseFee: 10_000_000n,
        blobBaseFee: 1n,
        baseFeeScalar: 1101,
        blobBaseFeeScalar: 659_851,
        batcherHash: batcher('0x6cdebe940bc0f26850285caca097c11c33103e47'),
        operatorFeeScalar: 0,
        operatorFeeConstant: 0n,
      },
      l1InfoGas: 1_000_000n,
    },
  },
];

/** Every preset, in the order CHAIN_NAMES lists them. */
export function allPresets(): readonly ChainPreset[] {
  return PRESETS;
}

/** The preset named `name` (a --chain value), or undefined. */
export function presetByName(name: string): ChainPreset | undefined {
  return PRESETS.find((preset) => preset.name === name);
}

/** The preset of a chain id (8453 Base, 84532 Base Sepolia), or undefined: what a fork of such a chain builds with. */
export function presetForChainId(chainId: bigint): ChainPreset | undefined {
  return PRESETS.find((preset) => preset.chainId === chainId);
}
