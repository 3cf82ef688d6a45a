// An OP Stack preset's predeploys at genesis (--chain base): L1Block, GasPriceOracle and the fee
// vaults, each with its real runtime code (presets/opStackBytecode.ts) placed directly at its
// address. GasPriceOracle starts with isEcotone and isFjord set (slot 0, bytes 0 and 1), as
// setEcotone() and setFjord() leave it; L1Block starts empty and each block's deposit fills it.
import { OP_STACK_PREDEPLOYS } from '../presets/chainPresets';
import { BASE_FEE_VAULT_RUNTIME, GAS_PRICE_ORACLE_RUNTIME, L1_BLOCK_RUNTIME, L1_FEE_VAULT_RUNTIME, SEQUENCER_FEE_VAULT_RUNTIME } from '../presets/opStackBytecode';
import type { StateDraft } from '../state/worldState';

/** GasPriceOracle's slot 0: isEcotone (byte 0) and isFjord (byte 1) both true. */
export const GAS_PRICE_ORACLE_FJORD_SLOT0 = 0x0101n;

export function placeOpStackPredeploys(draft: StateDraft): void {
  const place = (address: string, code: string): void => draft.setAccount(address, { nonce: 0n, balance: 0n, code });
  place(OP_STACK_PREDEPLOYS.l1Block, L1_BLOCK_RUNTIME);
  place(OP_STACK_PREDEPLOYS.gasPriceOracle, GAS_PRICE_ORACLE_RUNTIME);
  place(OP_STACK_PREDEPLOYS.sequencerFeeVault, SEQUENCER_FEE_VAULT_RUNTIME);
  place(OP_STACK_PREDEPLOYS.baseFeeVault, BASE_FEE_VAULT_RUNTIME);
  place(OP_STACK_PREDEPLOYS.l1FeeVault, L1_FEE_VAULT_RUNTIME);
  draft.setStorage(OP_STACK_PREDEPLOYS.gasPriceOracle, 0n, GAS_PRICE_ORACLE_FJORD_SLOT0);
}
