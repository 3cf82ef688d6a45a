// An OP Stack preset's predeploys at genesis (--chain base): L1Block, GasPriceOracle and the fee
// vaults, each with its real runtime code (presets/opStackBytecode.ts) placed directly at its
// address. GasPriceOracle starts with isEcotone, isFjord and isIsthmus set (slot 0, bytes 0 to 2);
// L1Block starts empty and each block's deposit fills it.
import { OP_STACK_PREDEPLOYS } from '../presets/chainPresets';
import { OPERATOR_FEE_VAULT_RUNTIME, BASE_FEE_VAULT_RUNTIME, GAS_PRICE_ORACLE_RUNTIME, L1_BLOCK_RUNTIME, L1_FEE_VAULT_RUNTIME, SEQUENCER_FEE_VAULT_RUNTIME } from '../presets/opStackBytecode';
import type { StateDraft } from '../state/worldState';

/** GasPriceOracle's slot 0: isEcotone (byte 0), isFjord (byte 1) and isIsthmus (byte 2) true, as setEcotone(), setFjord() and setIsthmus() leave it. */
export const GAS_PRICE_ORACLE_ISTHMUS_SLOT0 = 0x010101n;

export function placeOpStackPredeploys(draft: StateDraft): void {
  const place = (address: string, code: string): void => draft.setAccount(address, { nonce: 0n, balance: 0n, code });
  place(OP_STACK_PREDEPLOYS.l1Block, L1_BLOCK_RUNTIME);
  place(OP_STACK_PREDEPLOYS.gasPriceOracle, GAS_PRICE_ORACLE_RUNTIME);
  place(OP_STACK_PREDEPLOYS.sequencerFeeVault, SEQUENCER_FEE_VAULT_RUNTIME);
  place(OP_STACK_PREDEPLOYS.baseFeeVault, BASE_FEE_VAULT_RUNTIME);
  place(OP_STACK_PREDEPLOYS.l1FeeVault, L1_FEE_VAULT_RUNTIME);
  place(OP_STACK_PREDEPLOYS.operatorFeeVault, OPERATOR_FEE_VAULT_RUNTIME);
  draft.setStorage(OP_STACK_PREDEPLOYS.gasPriceOracle, 0n, GAS_PRICE_ORACLE_ISTHMUS_SLOT0);
}
