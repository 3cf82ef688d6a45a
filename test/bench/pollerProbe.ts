// Run by the bench as its own process: what the extension host does with pending on and nothing
// changing, without VS Code around it. The bundled mock node runs in-process in manual mode (as
// "Start Mock Node" runs it inside the extension host, but with no flashblocks), the explorer's
// model (extension/explorer/explorerModel.ts) has the mock endpoint expanded with its accounts,
// storage, token and logs sections open, and the explorer's Poller ticks at the flashblock
// interval; after each tick the tree index is rebuilt and diffed as the tree provider does.
// Prints one JSON line: CPU of this process as % of one core over the measured window.
//   node --import tsx test/bench/pollerProbe.ts <seconds>
import { AbiCoder, keccak256 } from 'ethers';
import { startMockNode } from '../../mock-node/index';
import { diffTrees, indexTree } from '../../extension/explorer/changeDetection';
import { ExplorerModel } from '../../extension/explorer/explorerModel';
import { Poller } from '../../extension/explorer/poller';

const FLASHBLOCK_MS = 200;

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const node = await startMockNode({ port: 0, auto: false, quiet: true });
  const accounts = node.accounts.slice(0, 3).map((a) => a.address);
  const balanceSlot = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [accounts[0], 9]));
  const endpoint = {
    id: 'ep:mock:public',
    name: 'Mock node (public)',
    url: node.url,
    displayUrl: node.url,
    tokenAddress: node.tokenAddress,
    defaultAccounts: accounts,
    defaultStorageSlots: [
      { address: node.tokenAddress, slot: '0xb', label: 'totalSupply' },
      { address: node.tokenAddress, slot: balanceSlot, label: 'balance' },
    ],
  };
  const settings = { requestTimeoutMs: 10_000, showSafeFinalized: true, watchedAccounts: [], storageSlots: [], logFilters: [], recentBlocks: 10, addressHistoryBlocks: 2000, activityBlocks: 100 };
  const model = new ExplorerModel(() => [endpoint], () => settings);
  model.setTag('pending');
  await model.expandEndpoint(endpoint.id);
  for (const section of ['accounts', 'storage', 'token', 'logs'] as const) await model.openSection(endpoint.id, section);
  let roots = model.roots();
  let index = indexTree(roots);
  let changedNodes = 0;
  // As the extension's refresher does: the model says when a load may have changed the tree, and
  // the tree is rebuilt and diffed then.
  model.onDidChange(() => {
    const next = model.roots();
    const nextIndex = indexTree(next);
    changedNodes += diffTrees(index, nextIndex, roots.map((r) => r.id), next.map((r) => r.id)).nodes.length;
    roots = next;
    index = nextIndex;
  });
  const poller = new Poller({
    intervalMs: () => FLASHBLOCK_MS,
    tick: (signal) => model.tick(signal),
  });
  poller.setActive(true);
  await new Promise((resolve) => setTimeout(resolve, 2000)); // warm-up
  const ticksBefore = poller.ticks;
  changedNodes = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const cpu = process.cpuUsage(cpuBefore);
  const elapsedMs = performance.now() - started;
  poller.dispose();
  await node.stop();
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(JSON.stringify({ cpuPercent: (100 * cpuMs) / elapsedMs, ticks: poller.ticks - ticksBefore, changedNodes, seconds: elapsedMs / 1000 }));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
