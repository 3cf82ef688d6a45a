// Real clients over the node's WebSocket, unmodified: ethers' WebSocketProvider and viem's
// webSocket transport subscribe to new blocks and to the token's Transfer events.
import assert from 'node:assert/strict';
import { Contract, WebSocketProvider } from 'ethers';
import { createPublicClient, parseAbiItem, webSocket } from 'viem';
import type { RunningMockNode } from '../../../mock-node/index';
import { STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import { rpc, startTestNode } from '../../helpers/rpc';
import { waitUntil } from '../../helpers/wait';
import { sendTokenTransfer } from '../profiles/helpers';

describe('WebSocket clients', () => {
  let node: RunningMockNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.stop());

  it('ethers WebSocketProvider: block events and contract Transfer events', async () => {
    const provider = new WebSocketProvider(node.wsUrl);
    try {
      const blocks: number[] = [];
      const transfers: { from: string; to: string; value: bigint; hash: string }[] = [];
      await provider.on('block', (n: number) => blocks.push(n));
      const token = new Contract(node.tokenAddress, STABLE_TOKEN_ABI as unknown as string[], provider);
      await token.on('Transfer', (from: string, to: string, value: bigint, event: any) => transfers.push({ from, to, value, hash: event.log.transactionHash }));
      await waitUntil('the two subscriptions', () => node.websocket.hub.size === 2);
      const hash = await sendTokenTransfer(node, 0, 1, 1234n);
      await rpc(node.url, 'evm_mine');
      await waitUntil('ethers events', () => blocks.includes(1) && transfers.length === 1, 5000);
      assert.equal(transfers[0].value, 1234n);
      assert.equal(transfers[0].hash, hash);
      assert.equal(transfers[0].to, node.accounts[1].address);
    } finally {
      await provider.destroy();
    }
  });

  it('viem webSocket transport: watchBlockNumber and watchEvent', async () => {
    const client = createPublicClient({ transport: webSocket(node.wsUrl) });
    const numbers: bigint[] = [];
    const values: bigint[] = [];
    const unwatchBlocks = client.watchBlockNumber({ onBlockNumber: (n) => numbers.push(n) });
    const unwatchEvents = client.watchEvent({
      address: node.tokenAddress as `0x${string}`,
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      onLogs: (logs) => values.push(...logs.map((log) => log.args.value!)),
    });
    try {
      await waitUntil('the two subscriptions', () => node.websocket.hub.size === 2);
      await sendTokenTransfer(node, 2, 3, 77n);
      await rpc(node.url, 'evm_mine');
      await waitUntil('viem events', () => numbers.includes(1n) && values.includes(77n), 5000);
    } finally {
      unwatchBlocks();
      unwatchEvents();
      await (await client.transport.getRpcClient()).close();
    }
  });
});
