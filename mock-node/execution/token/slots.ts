// The token's mapping slots (keccak256(pad32(key) ++ pad32(slot))) as the token kit defines them,
// computed on bytes with the node's keccak, and the balance slots (every transfer reads and
// writes two of them several times) kept per address. Equal to tokenKit/slots.ts's for every
// input (a unit test compares them); the kit's own functions stay the clients' reference.
import { TOKEN_SLOTS } from '../../tokenKit/index';
import { keccak256Bytes } from '../../encoding/keccak';

/** A key (0x-hex of at most 32 bytes, or a number) left-padded into `out` at `at`. */
function putWord(out: Uint8Array, at: number, key: bigint | string): void {
  const hex = typeof key === 'bigint' ? key.toString(16) : key.slice(2);
  if (hex.length > 64 || (typeof key === 'string' && (!key.startsWith('0x') || hex.length % 2 === 1))) throw new Error(`invalid mapping key ${String(key)}`);
  const bytes = Buffer.from(hex.length % 2 ? '0' + hex : hex, 'hex');
  if (bytes.length * 2 !== hex.length + (hex.length % 2)) throw new Error(`invalid mapping key ${String(key)}`);
  out.set(bytes, at + 32 - bytes.length);
}

/** Slot of `mapping[key]` for a mapping declared at `slot`. */
export function mappingSlot(key: bigint | string, slot: bigint): bigint {
  const input = new Uint8Array(64);
  putWord(input, 0, key);
  putWord(input, 32, slot);
  return BigInt('0x' + Buffer.from(keccak256Bytes(input)).toString('hex'));
}

const BALANCE_SLOTS_KEPT = 65_536;
const balanceSlots = new Map<string, bigint>();

/** Slot of `balanceAndBlacklistStates[account]` (lowercase address), kept per address. */
export function balanceSlot(account: string): bigint {
  let slot = balanceSlots.get(account);
  if (slot === undefined) {
    slot = mappingSlot(account, TOKEN_SLOTS.balanceAndBlacklistStates);
    if (balanceSlots.size >= BALANCE_SLOTS_KEPT) balanceSlots.clear();
    balanceSlots.set(account, slot);
  }
  return slot;
}

export function allowanceSlot(owner: string, spender: string): bigint {
  return mappingSlot(spender, mappingSlot(owner, TOKEN_SLOTS.allowed));
}

export function authorizationStateSlot(authorizer: string, nonce: string): bigint {
  return mappingSlot(nonce, mappingSlot(authorizer, TOKEN_SLOTS.authorizationStates));
}

export function permitNonceSlot(owner: string): bigint {
  return mappingSlot(owner, TOKEN_SLOTS.permitNonces);
}

export function minterSlot(account: string): bigint {
  return mappingSlot(account, TOKEN_SLOTS.minters);
}

export function minterAllowedSlot(account: string): bigint {
  return mappingSlot(account, TOKEN_SLOTS.minterAllowed);
}
