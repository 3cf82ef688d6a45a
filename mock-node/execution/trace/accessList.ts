// The EIP-2930 access list a message needs, as revm's AccessListInspector (Anvil's
// eth_createAccessList) builds it: every storage slot read or written, under the address whose
// storage it is; every account an opcode touched except the sender, the recipient and the
// precompiles; plus whatever the request's own list named. Slots in ascending order.
import { word, type Hex } from '../../encoding/hex';
import type { AccessList } from '../../encoding/records';
import { isPrecompile } from '../evmGas';
import type { TraceRecorder } from './recorder';

export function buildAccessList(recorder: TraceRecorder, from: Hex, to: Hex | null, requested: AccessList | null): AccessList {
  const entries = new Map<Hex, Set<bigint>>();
  const entry = (address: Hex): Set<bigint> => {
    let set = entries.get(address);
    if (!set) entries.set(address, (set = new Set()));
    return set;
  };
  for (const item of requested ?? []) {
    const set = entry(item.address.toLowerCase());
    for (const key of item.storageKeys) set.add(BigInt(key));
  }
  const excluded = new Set([from.toLowerCase(), ...(to ? [to.toLowerCase()] : [])]);
  for (const address of recorder.accounts) if (!excluded.has(address) && !isPrecompile(address)) entry(address);
  for (const [address, slots] of recorder.slots) {
    const set = entry(address);
    for (const slot of slots) set.add(slot);
  }
  return [...entries].map(([address, slots]) => ({
    address,
    storageKeys: [...slots].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(word),
  }));
}
