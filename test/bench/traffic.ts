// The traffic the bench sends: pre-signed ETH transfers, token transfers and EIP-3009 captures
// from the well-known dev accounts, signed before any timing starts (ethers builds and hashes
// each transaction, libsecp256k1 (tiny-secp256k1) signs it, so signing 10,000s stays quick), and a sender that
// submits them as 10 concurrent streams, one per sender, each in nonce order.
import { spawn } from 'node:child_process';
import * as ecc from 'tiny-secp256k1';
import { HDNodeWallet, Interface, Mnemonic, Signature, Transaction, TypedDataEncoder, getBytes, hexlify, randomBytes } from 'ethers';
import { DEFAULT_MNEMONIC, STABLE_TOKEN_ABI, TYPED_DATA_TYPES } from '../../mock-node/index';
import { call, freePort, post, rpcBody, waitForAnswer } from './rpcClient';

export const CHAIN_ID = 31337n;
export const SENDERS = 10;
const FEES = { maxFeePerGas: 100n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n };
const TOKEN = new Interface(STABLE_TOKEN_ABI as never);

export interface DevKey {
  address: string;
  privateKey: Uint8Array;
}

/** The first `count` dev accounts of the test mnemonic (the same on the mock node and Anvil). */
export function devKeys(count: number): DevKey[] {
  const mnemonic = Mnemonic.fromPhrase(DEFAULT_MNEMONIC);
  return Array.from({ length: count }, (_, i) => {
    const wallet = HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`);
    return { address: wallet.address.toLowerCase(), privateKey: getBytes(wallet.privateKey) };
  });
}

function signDigest(digest: string, key: DevKey): { r: string; s: string; yParity: 0 | 1 } {
  const { signature, recoveryId } = ecc.signRecoverable(getBytes(digest), key.privateKey);
  return { yParity: recoveryId as 0 | 1, r: hexlify(signature.subarray(0, 32)), s: hexlify(signature.subarray(32, 64)) };
}

/** An EIP-1559 transaction signed by `key`, as raw 0x-hex. */
export function signTransaction(key: DevKey, fields: { to: string | null; nonce: number; value?: bigint; data?: string; gasLimit: bigint }): string {
  const tx = Transaction.from({ type: 2, chainId: CHAIN_ID, ...FEES, to: fields.to, nonce: fields.nonce, value: fields.value ?? 0n, data: fields.data ?? '0x', gasLimit: fields.gasLimit });
  tx.signature = Signature.from(signDigest(tx.unsignedHash, key));
  return tx.serialized;
}

export function tokenTransferData(to: string, amount: bigint): string {
  return TOKEN.encodeFunctionData('transfer', [to, amount]);
}

/** Current pending nonce of each key on a node. */
export async function nonces(url: string, keys: readonly DevKey[]): Promise<number[]> {
  return Promise.all(keys.map(async (k) => Number(await call(url, 'eth_getTransactionCount', [k.address, 'pending']))));
}

/** Per sender, `perSender` transactions in nonce order; `make(sender, i)` gives what to send. */
export async function presign(
  url: string,
  keys: readonly DevKey[],
  perSender: number,
  make: (sender: number, i: number) => { to: string; value?: bigint; data?: string; gasLimit: bigint },
): Promise<string[][]> {
  const start = await nonces(url, keys);
  return keys.map((key, s) => Array.from({ length: perSender }, (_, i) => signTransaction(key, { ...make(s, i), nonce: start[s] + i })));
}

export function ethTransfers(url: string, keys: readonly DevKey[], perSender: number): Promise<string[][]> {
  return presign(url, keys, perSender, (s) => ({ to: keys[(s + 1) % keys.length].address, value: 1n, gasLimit: 21_000n }));
}

export function tokenTransfers(url: string, keys: readonly DevKey[], token: string, perSender: number): Promise<string[][]> {
  return presign(url, keys, perSender, (s) => ({ to: token, data: tokenTransferData(keys[(s + 1) % keys.length].address, 1n), gasLimit: 100_000n }));
}

/**
 * `count` captures: `merchant` calls receiveWithAuthorization for authorizations the payers
 * signed (ReceiveWithAuthorization, a fresh random nonce each, valid for an hour around `now`).
 */
export async function captures(url: string, token: string, payers: readonly DevKey[], merchant: DevKey, count: number, now: bigint): Promise<string[]> {
  const domain = { name: 'USD Coin', version: '2', chainId: CHAIN_ID, verifyingContract: token };
  const types = { ReceiveWithAuthorization: [...TYPED_DATA_TYPES.ReceiveWithAuthorization.ReceiveWithAuthorization] };
  const [start] = await nonces(url, [merchant]);
  return Array.from({ length: count }, (_, i) => {
    const payer = payers[i % payers.length];
    const message = { from: payer.address, to: merchant.address, value: 1n, validAfter: now - 3600n, validBefore: now + 3600n, nonce: hexlify(randomBytes(32)) };
    const sig = signDigest(TypedDataEncoder.hash(domain, types, message), payer);
    const data = TOKEN.encodeFunctionData('receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)', [
      message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, 27 + sig.yParity, sig.r, sig.s,
    ]);
    return signTransaction(merchant, { to: token, data, nonce: start + i, gasLimit: 200_000n });
  });
}

/** Sends every stream concurrently, each stream's transactions one after another; throws on any error. */
export async function sendStreams(url: string, streams: readonly string[][]): Promise<{ wallMs: number; hashes: string[][] }> {
  const started = performance.now();
  const hashes = await Promise.all(
    streams.map(async (stream) => {
      const out: string[] = [];
      for (const raw of stream) {
        const reply = await post(url, rpcBody('eth_sendRawTransaction', [raw]));
        if (reply.error) throw new Error(`eth_sendRawTransaction: ${reply.error.message}`);
        out.push(reply.result);
      }
      return out;
    }),
  );
  return { wallMs: performance.now() - started, hashes };
}

/** Sends all transactions at once: one batch request of up to `batchSize` each, batches in parallel. */
export async function sendAllAtOnce(url: string, raws: readonly string[], batchSize = 500): Promise<string[]> {
  const batches: string[][] = [];
  for (let i = 0; i < raws.length; i += batchSize) batches.push(raws.slice(i, i + batchSize) as string[]);
  const replies = await Promise.all(
    batches.map((batch) => post(url, JSON.stringify(batch.map((raw, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_sendRawTransaction', params: [raw] }))))),
  );
  return replies.flatMap((reply: any[]) =>
    reply.map((item) => {
      if (item.error) throw new Error(`eth_sendRawTransaction: ${item.error.message}`);
      return item.result as string;
    }),
  );
}

/** Waits until every key's latest nonce reached `expected` (everything sent is sealed). */
export async function waitSealed(url: string, keys: readonly DevKey[], expected: readonly number[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await Promise.all(keys.map(async (k) => Number(await call(url, 'eth_getTransactionCount', [k.address, 'latest']))));
    if (counts.every((c, i) => c >= expected[i])) return;
    if (Date.now() > deadline) throw new Error(`transactions not sealed within ${timeoutMs} ms: ${counts} < ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Warms the load generator's own code before any node is measured. sendStreams is Node's http
 * client in this process: on its first few thousand requests V8 is still compiling it, on the
 * bench's two cores, beside the node under test. Without this the first node measured (the mock
 * node) met a cold client and the second (Anvil) a warm one. The warm-up talks to a throwaway
 * server of fixed answers in a child process, so neither node sees a request of it.
 */
export async function warmLoadGenerator(rounds = 4): Promise<void> {
  const port = await freePort();
  const hash = `0x${'ab'.repeat(32)}`;
  const server = `require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => r.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":"${hash}"}')); }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', server], { stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}/`;
    await waitForAnswer(url, child, 30_000);
    // Bodies of a signed transfer's length: the same code the intake runs, on the same sizes.
    const raw = `0x02f8${'cd'.repeat(112)}`;
    for (let round = 0; round < rounds; round++) {
      await sendStreams(url, Array.from({ length: SENDERS }, () => Array.from({ length: 200 }, () => raw)));
    }
  } finally {
    child.kill();
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  }
}
