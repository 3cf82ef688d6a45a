// The fork's upstream state fetches an upgradeable proxy's slots and its implementation's account
// with the proxy (mock-node/upstream/proxySlots.ts), batch by batch, through a fake upstream
// client that answers from a table and records each batch.
import assert from 'node:assert/strict';
import { EIP1967_ADMIN_SLOT, EIP1967_IMPLEMENTATION_SLOT, proxySlotsIn } from '../../../mock-node/upstream/proxySlots';
import type { UpstreamCall, UpstreamClient } from '../../../mock-node/upstream/upstreamClient';
import { UpstreamState } from '../../../mock-node/upstream/upstreamState';

const PROXY = '0x00000000000000000000000000000000000000aa';
const IMPLEMENTATION = '0x00000000000000000000000000000000000000bb';
const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`;
// An EIP-1967 proxy's runtime as OpenZeppelin's compiles: it pushes the implementation slot (PUSH32) and SLOADs it.
const PROXY_CODE = `0x60806040527f${word(EIP1967_IMPLEMENTATION_SLOT).slice(2)}5473ffffffffffffffffffffffffffffffffffffffff16366000803760008036600084`;

function fakeClient(code: Record<string, string>, storage: Record<string, string>): { client: UpstreamClient; batches: string[][] } {
  const batches: string[][] = [];
  const fake = {
    settings: { shownUrl: 'http://upstream/<redacted>' },
    async batch(calls: readonly UpstreamCall[]): Promise<unknown[]> {
      batches.push(calls.map((call) => `${call.method}(${(call.params as string[]).slice(0, -1).join(',')})`));
      return calls.map((call) => {
        const [address, slot] = call.params as string[];
        if (call.method === 'eth_getCode') return code[address] ?? '0x';
        if (call.method === 'eth_getStorageAt') return storage[`${address}:${BigInt(slot)}`] ?? word(0n);
        return '0x0';
      });
    },
  };
  return { client: fake as unknown as UpstreamClient, batches };
}

describe('fork: a proxy is fetched with its implementation', () => {
  it('finds the proxy slots an EIP-1967 proxy pushes, and none in other code', () => {
    assert.deepEqual(proxySlotsIn(PROXY_CODE), [EIP1967_IMPLEMENTATION_SLOT]);
    assert.deepEqual(proxySlotsIn('0x6080604052348015600f57600080fd5b50'), []);
  });

  it('fetches the implementation slot, then the implementation, in the fetch that found the proxy', async () => {
    const { client, batches } = fakeClient({ [PROXY]: PROXY_CODE, [IMPLEMENTATION]: '0x6001600055' }, { [`${PROXY}:${EIP1967_IMPLEMENTATION_SLOT}`]: word(BigInt(IMPLEMENTATION)) });
    const state = new UpstreamState(client, 7n);
    await state.fetch({ accounts: new Set([PROXY]), slots: new Map() });
    assert.deepEqual(batches, [
      [`eth_getBalance(${PROXY})`, `eth_getTransactionCount(${PROXY})`, `eth_getCode(${PROXY})`],
      [`eth_getStorageAt(${PROXY},${word(EIP1967_IMPLEMENTATION_SLOT).replace(/^0x0+/, '0x')})`],
      [`eth_getBalance(${IMPLEMENTATION})`, `eth_getTransactionCount(${IMPLEMENTATION})`, `eth_getCode(${IMPLEMENTATION})`],
    ]);
    assert.equal(state.account(IMPLEMENTATION)?.code, '0x6001600055');
    // Kept: a second fetch touching the proxy asks nothing more.
    await state.fetch({ accounts: new Set(), slots: new Map([[PROXY, new Set([EIP1967_IMPLEMENTATION_SLOT])]]) });
    assert.equal(batches.length, 3);
  });

  it('stops at an empty implementation slot, and leaves other accounts alone', async () => {
    const plain = '0x00000000000000000000000000000000000000cc';
    const { client, batches } = fakeClient({ [PROXY]: PROXY_CODE, [plain]: '0x6001' }, {});
    const state = new UpstreamState(client, 7n);
    await state.fetch({ accounts: new Set([PROXY, plain]), slots: new Map() });
    assert.equal(batches.length, 2);
    assert.equal(state.storage(PROXY, EIP1967_IMPLEMENTATION_SLOT), 0n);
    assert.equal(state.storage(PROXY, EIP1967_ADMIN_SLOT), undefined);
  });
});
