// Control methods that act for an account or rewrite it, under Anvil's names (Hardhat's are catalog aliases):
// impersonation (eth_sendTransaction sends for the account with Anvil's fixed signature) and the
// state setters (storage, nonce, code, balance). A setter changes the current state through the
// chain's one writer, all or nothing, as Anvil does: `latest` reads (by tag, number or hash of
// the head) see it at once, without a new block, and so do `pending` reads (the pending block
// holds it over its pre-confirmed transactions, so the next block to seal carries it and its
// stateRoot covers it); nothing is logged and no transaction is made.
import { parseAddress, parseAmount, parseBoolean, parseData, parseHash, parseSlot } from '../params';
import { ANSWER_FIRST, type MethodHandler, type MethodTable } from './types';

const MAX_NONCE = 2n ** 64n - 1n;

const impersonate: MethodHandler = (params, { node }) => {
  node.impersonation.impersonate(parseAddress(params[0], 0));
  return null;
};

const stopImpersonating: MethodHandler = (params, { node }) => {
  node.impersonation.stop(parseAddress(params[0], 0));
  return null;
};

const autoImpersonate: MethodHandler = (params, { node }) => {
  node.impersonation.setAuto(parseBoolean(params[0], 0, 'enabled'));
  return null;
};

/** (address, slot, value): value a 32-byte word, as Anvil requires; answers true, as Anvil does. */
const setStorageAt: MethodHandler = async (params, { node }) => {
  const address = parseAddress(params[0], 0);
  const slot = parseSlot(params[1], 1);
  const value = BigInt(parseHash(params[2], 2, 'value'));
  await node.chain.applySystemChange((draft) => draft.setStorage(address, slot, value), ANSWER_FIRST);
  return true;
};

/** (address, nonce): a hex quantity, a decimal string or a number; above 2^64 - 1 it saturates there, as on Anvil. */
const setNonce: MethodHandler = async (params, { node }) => {
  const address = parseAddress(params[0], 0);
  const given = parseAmount(params[1], 1, 'nonce');
  const nonce = given > MAX_NONCE ? MAX_NONCE : given;
  await node.chain.applySystemChange((draft) => draft.updateAccount(address, { nonce }), ANSWER_FIRST);
  return null;
};

/** (address, code): stored, served by eth_getCode, counted in the state root; calls to it run in the EVM. */
const setCode: MethodHandler = async (params, { node }) => {
  const address = parseAddress(params[0], 0);
  const code = parseData(params[1], 1, 'code');
  await node.chain.applySystemChange((draft) => draft.updateAccount(address, { code }), ANSWER_FIRST);
  return null;
};

export const accountControlMethods: MethodTable = {
  anvil_impersonateAccount: impersonate,
  anvil_stopImpersonatingAccount: stopImpersonating,
  anvil_autoImpersonateAccount: autoImpersonate,
  anvil_setStorageAt: setStorageAt,
  anvil_setNonce: setNonce,
  anvil_setCode: setCode,
};
