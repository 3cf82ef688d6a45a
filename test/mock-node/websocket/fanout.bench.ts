// Measures what WebSocket fan-out costs a flashblock (not a test: prints figures only).
//   npx tsx test/mock-node/websocket/fanout.bench.ts [sockets=1000]
// Clients run in a child process (so their parsing does not share the node's CPU); each socket
// subscribes to newFlashblocks, pendingLogs, newFlashblockTransactions(true), logs and newHeads.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Interface } from 'ethers';
import { startMockNode } from '../../../mock-node/index';
import { STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';

const CLIENTS = `
const WebSocket = require(${JSON.stringify(join(__dirname, '..', '..', '..', 'node_modules', 'ws'))});
const [url, n] = [process.argv[1], Number(process.argv[2])];
let received = 0, opened = 0;
for (let i = 0; i < n; i++) {
  const ws = new WebSocket(url);
  ws.on('open', () => {
    for (const p of [['newFlashblocks'], ['pendingLogs', { topics: [null] }], ['newFlashblockTransactions', true], ['logs', {}], ['newHeads']]) {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: p }));
    }
    if (++opened === n) setTimeout(() => process.send('ready'), 500);
  });
  ws.on('message', () => received++);
}
process.on('message', () => process.send('received ' + received));
`;

async function main(): Promise<void> {
  const sockets = Number(process.argv[2] ?? 1000);
  const node = await startMockNode({ port: 0, auto: false, quiet: true });
  const chain = node.core.services.chain;
  const token = new Interface(STABLE_TOKEN_ABI as unknown as string[]);
  const round = async (label: string) => {
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      for (let j = 0; j < 5; j++) {
        await node.request('eth_sendTransaction', [{ from: node.accounts[j].address, to: node.tokenAddress, data: token.encodeFunctionData('transfer', [node.accounts[9].address, 1n]) }]);
      }
      const started = performance.now();
      await chain.cutFlashblock();
      await new Promise((resolve) => setImmediate(resolve)); // include the microtask flush of the batched sends
      times.push(performance.now() - started);
      await chain.mine(1); // seal, so each timed flashblock starts from an empty pending block
    }
    times.sort((a, b) => a - b);
    console.log(`${label}: first flashblock of a block, 5 transfers: median ${times[10].toFixed(2)} ms, max ${times[20].toFixed(2)} ms`);
  };
  await round('no subscribers');
  const child = spawn(process.execPath, ['-e', CLIENTS, node.wsUrl, String(sockets)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve) => child.once('message', resolve));
  await round(`${sockets} sockets x 5 subscriptions (11 notifications per socket per flashblock)`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  child.send('count');
  console.log(`${await new Promise((resolve) => child.once('message', resolve))} messages; node queued ${node.websocket.stats().notificationsSent} notifications`);
  child.kill();
  await node.stop();
}

void main();
