// Where upgradeable proxies keep their implementation and admin: EIP-1967's slots (OpenZeppelin's
// ERC1967Proxy, TransparentUpgradeableProxy, UUPS) and ZeppelinOS's older ones (Circle's
// FiatTokenProxy, USDC on Base and Ethereum). A proxy reads them on every call, then runs the
// implementation's code: a fork that fetches them, and the implementation's account, together
// with the proxy saves a fetch-and-run-again round for each.
import type { Hex } from '../encoding/hex';

/** bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1) */
export const EIP1967_IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbcn;
/** bytes32(uint256(keccak256('eip1967.proxy.admin')) - 1) */
export const EIP1967_ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103n;
/** keccak256('org.zeppelinos.proxy.implementation') */
export const ZEPPELINOS_IMPLEMENTATION_SLOT = 0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3n;
/** keccak256('org.zeppelinos.proxy.admin') */
export const ZEPPELINOS_ADMIN_SLOT = 0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390bn;

const IMPLEMENTATION_SLOTS: readonly bigint[] = [EIP1967_IMPLEMENTATION_SLOT, ZEPPELINOS_IMPLEMENTATION_SLOT];

/** Every proxy slot, as a contract's code pushes it: PUSH32 (0x7f) and the slot. */
const PUSHED: readonly { slot: bigint; push: string }[] = [EIP1967_IMPLEMENTATION_SLOT, EIP1967_ADMIN_SLOT, ZEPPELINOS_IMPLEMENTATION_SLOT, ZEPPELINOS_ADMIN_SLOT].map((slot) => ({
  slot,
  push: `7f${slot.toString(16).padStart(64, '0')}`,
}));

/** Every proxy slot (the fork's start asks for them at the token's address along with its account). */
export const PROXY_SLOTS: readonly bigint[] = PUSHED.map(({ slot }) => slot);

/** The proxy slots a contract's code (lowercase hex) pushes: it is a proxy that reads them. Empty for other code. */
export function proxySlotsIn(code: Hex): bigint[] {
  if (code.length < 68) return [];
  return PUSHED.filter(({ push }) => code.includes(push)).map(({ slot }) => slot);
}

/** The implementation an implementation slot names (its low 20 bytes); undefined for another slot, or an empty one. */
export function implementationIn(slot: bigint, value: bigint): Hex | undefined {
  if (!IMPLEMENTATION_SLOTS.includes(slot)) return undefined;
  const address = value & ((1n << 160n) - 1n);
  return address === 0n ? undefined : `0x${address.toString(16).padStart(40, '0')}`;
}
