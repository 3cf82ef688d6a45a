// `npm run demo`: the seed's whole flow, one step at a time, against a freshly started mock node
// (its CLI bundle as a child process). Each step prints what it does and the state it observes, and
// checks every claim it prints: a step that does not behave as printed makes the exit code 1.
//   --json   one JSON object per step (and a summary line), for machines
import { hexlify, randomBytes, TypedDataEncoder, verifyTypedData, type TypedDataField, type Wallet } from 'ethers';
import WebSocket from 'ws';
import { buildTypedData, EVENT_TOPICS, formatTokenUnits, TYPED_DATA_TYPES, type AuthorizationMessage } from '../../mock-node/tokenKit/index';
import { call, DemoChain, decodeLogs, devWallet, post } from './chainClient';
import { startNodeProcess } from './nodeProcess';
import { Reporter } from './report';

const CAPTURE = 'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)';
const CANCEL = 'cancelAuthorization(address,bytes32,bytes)';
/** Enough gas for any capture; given explicitly so that a capture that reverts is still mined. */
const CAPTURE_GAS = 200_000n;
/** The kit's read-only EIP-712 types in the mutable shape ethers' signer takes. */
const RECEIVE = TYPED_DATA_TYPES.ReceiveWithAuthorization as unknown as Record<string, TypedDataField[]>;
const CANCEL_TYPES = TYPED_DATA_TYPES.CancelAuthorization as unknown as Record<string, TypedDataField[]>;
const usdc = (units: bigint) => `${formatTokenUnits(units, { group: true })} USDC`;
/** The well-known test mnemonic the node derives its dev accounts from (it prints their keys). */
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const short = (hex: string) => `${hex.slice(0, 10)}…`;

type Authorization = AuthorizationMessage;

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const report = new Reporter(json);
  report.live(report.paint('1', 'Chain RPC Explorer demo: reads of a live pending block and a deferred EIP-3009 payment'));

  const node = await startNodeProcess(['--accounts', '4']);
  const chain = new DemoChain(node.url, node.dedicatedUrl, node.chainId, node.token);
  const [payer, merchant, other] = [1, 2, 3].map((i) => devWallet(DEV_MNEMONIC, i));
  const domain = {
    name: await chain.tokenCall('name', []) as string,
    version: await chain.tokenCall('version', []) as string,
    chainId: node.chainId,
    verifyingContract: node.token,
  };

  const signAuthorization = async (wallet: Wallet, terms: Authorization) =>
    wallet.signTypedData(domain, RECEIVE, terms);
  const captureArgs = (a: Authorization, signature: string) => [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, signature];
  const freshTerms = async (value: bigint, lifetimeSeconds = 900n): Promise<Authorization> => {
    const now = await chain.chainTime();
    return { from: payer.address, to: merchant.address, value, validAfter: now - 60n, validBefore: now + lifetimeSeconds, nonce: hexlify(randomBytes(32)) };
  };

  try {
    await report.run('A mock node starts offline', async (step) => {
      step.say(`public endpoint     ${node.url}`);
      step.say(`dedicated endpoint  ${node.dedicatedUrl.replace(/dedicated\/.*/, 'dedicated/<key>')}`);
      step.say(`chain id ${node.chainId}, token "${domain.name}" version ${domain.version} at ${node.token}`);
      step.say(`payer ${payer.address}, merchant ${merchant.address}`);
      step.check('the token answers balanceOf for the payer', (await chain.balanceOf(payer.address)) > 0n);
    });

    await report.run('A pending read sees a transfer before its block seals', async (step) => {
      const block = await chain.nextBlock();
      const before = await chain.balanceOf(merchant.address, 'pending');
      const hash = await chain.send(other, 'transfer', [merchant.address, 2_500_000n]);
      step.say(`sent 2.5 USDC from ${short(other.address)} to the merchant: ${short(hash)} (latest is #${block})`);
      const sentAt = Date.now();
      const pending = await chain.until(async () => {
        const p = await chain.block('pending');
        return p.transactions.includes(hash) ? p : undefined;
      }, 'the transfer in the pending block');
      const seenMs = Date.now() - sentAt;
      const latest = await chain.block('latest');
      step.say(`pending #${Number(pending.number)} holds it after ${seenMs} ms; latest #${Number(latest.number)} does not`);
      step.check('the transfer is pre-confirmed in pending while latest lacks it', !latest.transactions.includes(hash));
      const pendingBalance = await chain.balanceOf(merchant.address, 'pending');
      step.say(`merchant balance at pending: ${usdc(before)} → ${usdc(pendingBalance)}`);
      step.check('balanceOf at pending already includes the transfer', pendingBalance === before + 2_500_000n);
      const receipt = await chain.sealedReceipt(hash);
      step.say(`sealed into #${Number(receipt.blockNumber)} after ${Date.now() - sentAt} ms`);
      step.check('the sealed receipt succeeded', receipt.status === '0x1');
    });

    await report.run('Public endpoints answer eth_getBlockReceipts with HTTP 403; the dedicated one serves it', async (step) => {
      const pub = await post(node.url, 'eth_getBlockReceipts', ['latest']);
      step.say(`public:    HTTP ${pub.httpStatus}, error ${pub.error?.code}: ${pub.error?.message}`);
      step.check('the public endpoint answers HTTP 403', pub.httpStatus === 403);
      const dedicated = await post(node.dedicatedUrl, 'eth_getBlockReceipts', ['latest']);
      step.say(`dedicated: HTTP ${dedicated.httpStatus}, ${Array.isArray(dedicated.result) ? `${dedicated.result.length} receipt(s)` : 'no list'}`);
      step.check('the dedicated endpoint answers the receipts', dedicated.httpStatus === 200 && Array.isArray(dedicated.result));
    });

    let captured: { terms: Authorization; signature: string } | undefined;

    await report.run('The buyer signs an authorization offchain: nothing changes onchain', async (step) => {
      const terms = await freshTerms(10_000_000n);
      const payload = buildTypedData('ReceiveWithAuthorization', domain, { ...terms });
      step.say(`typed data: ${payload.primaryType} of ${usdc(terms.value)} to the merchant, nonce ${short(terms.nonce)}, valid until ${new Date(Number(terms.validBefore) * 1000).toISOString()}`);
      const nonceBefore = await chain.nonceOf(payer.address, 'pending');
      const balanceBefore = await chain.balanceOf(payer.address, 'pending');
      const signature = await signAuthorization(payer, terms);
      step.say(`signature ${short(signature)} (a payment credential: kept by the merchant, never logged)`);
      await chain.nextBlock();
      step.check('the payer sent no transaction', (await chain.nonceOf(payer.address, 'pending')) === nonceBefore);
      step.check('no balance moved or was reserved', (await chain.balanceOf(payer.address, 'pending')) === balanceBefore);
      step.check('authorizationState(payer, nonce) is still false', (await chain.authorizationState(payer.address, terms.nonce, 'pending')) === false);
      captured = { terms, signature };
    });

    await report.run('The merchant inspects the authorization, then captures it', async (step) => {
      if (!captured) throw new Error('no signed authorization from the previous step');
      const { terms, signature } = captured;
      const signer = verifyTypedData(domain, RECEIVE, terms, signature);
      step.check(`the signature recovers the payer (${short(signer)})`, signer === payer.address);
      step.say(`digest ${short(TypedDataEncoder.hash(domain, RECEIVE, terms))} over the token's own name, version and chain id`);
      const now = await chain.chainTime();
      step.check('the chain time is inside the validity window', now > terms.validAfter && now < terms.validBefore);
      step.check('the nonce is unused', (await chain.authorizationState(payer.address, terms.nonce)) === false);
      step.check('the payer holds at least the amount', (await chain.balanceOf(payer.address)) >= terms.value);
      step.check('a dry run of the capture (eth_call at pending) succeeds', (await chain.dryRun(merchant.address, CAPTURE, captureArgs(terms, signature))) === undefined);
      const merchantBefore = await chain.balanceOf(merchant.address);
      const hash = await chain.send(merchant, CAPTURE, captureArgs(terms, signature));
      const receipt = await chain.sealedReceipt(hash);
      const events = decodeLogs(receipt);
      step.say(`capture ${short(hash)} sealed in #${Number(receipt.blockNumber)}, status ${receipt.status}, gas ${Number(receipt.gasUsed)}`);
      step.say(`logs: ${events.map((e) => e.name).join(', ')}`);
      step.check('the receipt succeeded (only this guarantees payment)', receipt.status === '0x1');
      step.check('AuthorizationUsed(payer, nonce) was logged', events.some((e) => e.name === 'AuthorizationUsed' && e.args.authorizer === payer.address && e.args.nonce === terms.nonce));
      step.check('Transfer(payer, merchant, value) was logged', events.some((e) => e.name === 'Transfer' && e.args.from === payer.address && e.args.to === merchant.address && e.args.value === terms.value));
      const merchantAfter = await chain.balanceOf(merchant.address, receipt.blockNumber);
      step.say(`merchant balance ${usdc(merchantBefore)} → ${usdc(merchantAfter)}`);
      step.check('the merchant was paid exactly the amount', merchantAfter - merchantBefore === terms.value);
      step.check('authorizationState(payer, nonce) is now true', (await chain.authorizationState(payer.address, terms.nonce)) === true);
    });

    await report.run('A second capture of the same authorization reverts', async (step) => {
      if (!captured) throw new Error('no captured authorization from the previous step');
      const args = captureArgs(captured.terms, captured.signature);
      const reason = await chain.dryRun(merchant.address, CAPTURE, args);
      step.say(`dry run: reverted with "${reason}"`);
      step.check('the token names the used nonce', reason === 'FiatTokenV2: authorization is used or canceled');
      const before = await chain.balanceOf(merchant.address);
      const receipt = await chain.sealedReceipt(await chain.send(merchant, CAPTURE, args, CAPTURE_GAS));
      step.say(`sent anyway: status ${receipt.status} in #${Number(receipt.blockNumber)}, no logs: ${receipt.logs.length === 0}`);
      step.check('the mined transaction failed (status 0x0) and logged nothing', receipt.status === '0x0' && receipt.logs.length === 0);
      step.check('no funds moved', (await chain.balanceOf(merchant.address)) === before);
    });

    await report.run('The payer cancels an unused authorization; the merchant relays it; a capture then reverts', async (step) => {
      const terms = await freshTerms(1_000_000n);
      const signature = await signAuthorization(payer, terms);
      const cancelSignature = await payer.signTypedData(domain, CANCEL_TYPES, { authorizer: payer.address, nonce: terms.nonce });
      step.say(`payer signed CancelAuthorization for nonce ${short(terms.nonce)}; the merchant relays it`);
      const receipt = await chain.sealedReceipt(await chain.send(merchant, CANCEL, [payer.address, terms.nonce, cancelSignature]));
      const events = decodeLogs(receipt);
      step.say(`cancel sealed in #${Number(receipt.blockNumber)}: ${events.map((e) => e.name).join(', ')}`);
      step.check('AuthorizationCanceled(payer, nonce) was logged', events.some((e) => e.name === 'AuthorizationCanceled' && e.args.nonce === terms.nonce));
      step.check('authorizationState(payer, nonce) is true (used and canceled are one state)', (await chain.authorizationState(payer.address, terms.nonce)) === true);
      const reason = await chain.dryRun(merchant.address, CAPTURE, captureArgs(terms, signature));
      step.say(`capture now: reverted with "${reason}"`);
      step.check('the capture reverts', reason === 'FiatTokenV2: authorization is used or canceled');
    });

    await report.run('Time passes beyond validBefore: the authorization has expired', async (step) => {
      const terms = await freshTerms(1_000_000n, 60n);
      const signature = await signAuthorization(payer, terms);
      step.check('a capture would succeed now', (await chain.dryRun(merchant.address, CAPTURE, captureArgs(terms, signature))) === undefined);
      await call(node.url, 'evm_increaseTime', [120]);
      const sealed = await chain.nextBlock();
      const now = await chain.chainTime();
      step.say(`evm_increaseTime(120); block #${sealed} is at ${now}, validBefore was ${terms.validBefore}`);
      const reason = await chain.dryRun(merchant.address, CAPTURE, captureArgs(terms, signature));
      step.say(`capture now: reverted with "${reason}"`);
      step.check('the capture reverts as expired', reason === 'FiatTokenV2: authorization is expired');
      step.check('the nonce stays unused (expiry needs no transaction)', (await chain.authorizationState(payer.address, terms.nonce)) === false);
    });

    await report.run('Token policy blocks a blocklisted payer', async (step) => {
      const terms = await freshTerms(1_000_000n);
      const signature = await signAuthorization(payer, terms);
      await call(node.url, 'mock_setBlocked', [payer.address, true]);
      await chain.nextBlock();
      step.say('mock_setBlocked(payer, true): the token\'s blacklister flags the payer');
      try {
        const reason = await chain.dryRun(merchant.address, CAPTURE, captureArgs(terms, signature));
        step.say(`capture now: reverted with "${reason}"`);
        step.check('the capture reverts with the blocklist reason', reason === 'Blacklistable: account is blacklisted');
        step.check('the authorization itself is untouched', (await chain.authorizationState(payer.address, terms.nonce)) === false);
      } finally {
        await call(node.url, 'mock_setBlocked', [payer.address, false]);
      }
    });

    await report.run('A reorganization replays a log with removed: true', async (step) => {
      const socket = new WebSocket(node.url.replace(/^http/, 'ws'));
      const seen: { removed: boolean; transactionHash: string; blockNumber: string }[] = [];
      try {
        await new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
        socket.on('message', (data) => {
          const message = JSON.parse(data.toString());
          if (message.method === 'eth_subscription') seen.push(message.params.result);
        });
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['logs', { address: node.token, topics: [EVENT_TOPICS.Transfer] }] }));
        await chain.nextBlock();
        const hash = await chain.send(other, 'transfer', [merchant.address, 1_000_000n]);
        const receipt = await chain.sealedReceipt(hash);
        await chain.until(async () => seen.find((l) => l.transactionHash === hash && !l.removed), 'the log on the subscription');
        step.say(`transfer ${short(hash)} sealed in #${Number(receipt.blockNumber)}; the subscription got its log`);
        const depth = (await chain.latestNumber()) - Number(receipt.blockNumber) + 1;
        const reorg = await call(node.url, 'mock_reorg', [depth, { leaveOut: [hash] }]);
        step.say(`mock_reorg(${depth}, leaveOut the transfer): ${reorg.removed.length} block(s) replaced, returned ${reorg.returned.length} transaction(s) to the pending block`);
        const removed = await chain.until(async () => seen.find((l) => l.transactionHash === hash && l.removed), 'the removed: true replay');
        step.check(`the subscription replayed the log with removed: true (block #${Number(removed.blockNumber)})`, removed.removed === true);
        const again = await chain.sealedReceipt(hash);
        step.say(`the transfer landed again in #${Number(again.blockNumber)}`);
        step.check('the same transaction was sealed again after the reorg', again.status === '0x1');
      } finally {
        socket.close();
      }
    });
  } finally {
    await node.stop();
  }
  process.exitCode = report.summary() ? 0 : 1;
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
