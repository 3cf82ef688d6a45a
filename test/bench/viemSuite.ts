// A test suite of the kind Anvil users write with viem, runnable against any node that has
// Circle's USDC at the mock node's token address (the mock node natively, Anvil through
// test/helpers/usdcOnAnvil.ts). Each case: evm_snapshot; a "deal" (anvil_setStorageAt of the
// holder's balance slot, keccak(holder, 9)) or a contract deployment, alternately; three token
// transfers with automine on, each waited for through its receipt; readContract (balanceOf) and
// getLogs; evm_revert. Every case checks what it read, as a test would, and throws otherwise.
import { createTestClient, createWalletClient, encodeAbiParameters, http, keccak256, parseAbi, parseAbiItem, publicActions, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { CREATION_CODE } from './benchToken';

const TOKEN_ABI = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);
const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** BenchToken's constructor (test/bench/benchToken.ts): holders and the amount each gets. */
const BENCH_TOKEN_ABI = parseAbi(['constructor(address[] holders, uint256 amount)']);
/** FiatToken v2.2 keeps balances in the mapping at slot 9. */
const BALANCE_MAPPING_SLOT = 9n;
const AMOUNT = 1_000n;
/** A receipt that has not come within this long fails the case (viem's default is 3 minutes). */
const RECEIPT_TIMEOUT_MS = 15_000;
const DEALT = 123_456_789n;

export interface SuiteNode {
  url: string;
  /** USDC's address (the same on both nodes). */
  token: Hex;
  /** Private keys of the dev accounts (the same mnemonic on both nodes). */
  keys: readonly Hex[];
}

/** The storage slot of `holder`'s balance in FiatToken v2.2: keccak(pad32(holder) ++ pad32(9)). */
export function balanceSlot(holder: Hex): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, BALANCE_MAPPING_SLOT]));
}

/** What one case read, which both nodes must agree on. */
export interface CaseResult {
  kind: 'deal' | 'deploy';
  balance: bigint;
  logs: { from: Hex; to: Hex; value: bigint }[];
}

/**
 * How often viem polls while it waits for a receipt it did not find at once. viem's default for a
 * client is 4 s: Anvil writes an automined transaction's receipt a moment after it answers the
 * hash, now and then (5 of 200 cases in one probe), and each of those would cost the suite 4 s, a
 * figure of viem's default rather than of either node. Suites commonly set a short interval.
 */
export const POLLING_INTERVAL_MS = 50;

/** Requests the suite sent, by what the bench reports: transactions sent and receipt requests. */
export interface SuiteCounts {
  sent: number;
  receiptRequests: number;
}

/** The clients an Anvil user creates (foundry chain, plain http transport), counting what they send. */
function clientsOf(node: SuiteNode, counts: SuiteCounts) {
  const transport = http(node.url, {
    fetchFn: (url, init) => {
      const body = String(init?.body ?? '');
      if (body.includes('"eth_sendRawTransaction"')) counts.sent++;
      if (body.includes('"eth_getTransactionReceipt"')) counts.receiptRequests++;
      return fetch(url, init);
    },
  });
  const client = createTestClient({ chain: foundry, mode: 'anvil', transport, pollingInterval: POLLING_INTERVAL_MS }).extend(publicActions);
  const wallets = node.keys.map((key) => createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(key) }));
  return { client, wallets };
}

export type Suite = ReturnType<typeof viemSuite>;

/** The suite on one node: `setup()` once (automine on), then `runCase(i)` for each case. */
export function viemSuite(node: SuiteNode) {
  const counts: SuiteCounts = { sent: 0, receiptRequests: 0 };
  const { client, wallets } = clientsOf(node, counts);
  const sender = wallets[0];
  const recipients = wallets.slice(1).map((w) => w.account.address);

  async function runCase(index: number): Promise<CaseResult> {
    const kind = index % 2 === 0 ? 'deal' : 'deploy';
    const holder = recipients[index % recipients.length];
    const id = await client.snapshot();
    let before: bigint;
    if (kind === 'deal') {
      await client.setStorageAt({ address: node.token, index: balanceSlot(holder), value: `0x${DEALT.toString(16).padStart(64, '0')}` });
      before = DEALT;
    } else {
      const hash = await sender.deployContract({ abi: BENCH_TOKEN_ABI, bytecode: CREATION_CODE as Hex, args: [[sender.account.address], 10n ** 12n] });
      const receipt = await client.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`case ${index}: the deployment failed`);
      before = await client.readContract({ address: node.token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [holder], blockNumber: receipt.blockNumber });
    }
    const blocks: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      const hash = await sender.writeContract({ address: node.token, abi: TOKEN_ABI, functionName: 'transfer', args: [holder, AMOUNT] });
      const receipt = await client.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
      if (receipt.status !== 'success') throw new Error(`case ${index}: transfer ${i} reverted`);
      blocks.push(receipt.blockNumber);
    }
    const balance = await client.readContract({ address: node.token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [holder] });
    if (balance !== before + 3n * AMOUNT) throw new Error(`case ${index} (${kind}): balanceOf ${balance}, expected ${before + 3n * AMOUNT}`);
    const logs = await client.getLogs({ address: node.token, event: TRANSFER_EVENT, fromBlock: blocks[0], toBlock: blocks[2] });
    if (logs.length !== 3) throw new Error(`case ${index}: ${logs.length} Transfer logs, expected 3`);
    await client.revert({ id });
    return { kind, balance, logs: logs.map((log) => ({ from: log.args.from!.toLowerCase() as Hex, to: log.args.to!.toLowerCase() as Hex, value: log.args.value! })) };
  }

  return {
    /** What a suite's `before` hook does: automine on. */
    setup: () => client.setAutomine(true),
    runCase,
    /** What was sent so far: receipt requests beyond one a transaction are viem's polls for a receipt not there yet. */
    counts: (): SuiteCounts => ({ ...counts }),
    /** The holder's balance (to check that every revert restored it). */
    balanceOf: (index: number) => client.readContract({ address: node.token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [recipients[index % recipients.length]] }),
  };
}
