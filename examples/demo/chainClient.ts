// The demo's view of the node: a JSON-RPC client over HTTP, a local signer for dev accounts, and
// the token calls of the authorization flow. Everything goes over the wire, as from any language.
import { HDNodeWallet, Interface, Wallet } from 'ethers';
import { decodeTokenEvent, STABLE_TOKEN_ABI } from '../../mock-node/tokenKit/index';

export const TOKEN = new Interface(STABLE_TOKEN_ABI);
const ERROR_STRING = new Interface(['error Error(string)']);

export interface RpcReply {
  httpStatus: number;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

/** A JSON-RPC error as the node answered it. */
export class RpcFailure extends Error {
  constructor(readonly reply: RpcReply, method: string) {
    super(`${method}: ${reply.error ? `${reply.error.code} ${reply.error.message}` : `HTTP ${reply.httpStatus}`}`);
  }
}

let nextId = 1;

/** One POST, the reply as it came (HTTP status included). */
export async function post(url: string, method: string, params: unknown[] = []): Promise<RpcReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: RpcReply['error'] };
  return { httpStatus: response.status, result: body.result, error: body.error };
}

/** The result, or a thrown RpcFailure. */
export async function call<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = await post(url, method, params);
  if (reply.error || reply.httpStatus !== 200) throw new RpcFailure(reply, method);
  return reply.result as T;
}

/** The reason of an `execution reverted` error, decoded from its Error(string) data when present. */
export function revertReason(error: unknown): string | undefined {
  if (!(error instanceof RpcFailure) || !error.reply.error) return undefined;
  const { data, message } = error.reply.error;
  if (typeof data === 'string' && data.startsWith('0x08c379a0')) return ERROR_STRING.decodeErrorResult('Error', data)[0] as string;
  return message;
}

/** Dev account `index` of the well-known mnemonic (the node prints the same keys). */
export function devWallet(mnemonic: string, index: number): Wallet {
  const node = HDNodeWallet.fromPhrase(mnemonic, undefined, `m/44'/60'/0'/0/${index}`);
  return new Wallet(node.privateKey);
}

export class DemoChain {
  constructor(readonly url: string, readonly dedicatedUrl: string, readonly chainId: bigint, readonly token: string) {}

  async latestNumber(): Promise<number> {
    return Number(await call<string>(this.url, 'eth_blockNumber'));
  }

  async block(tag: string): Promise<{ number: string | null; hash: string | null; timestamp: string; transactions: string[] }> {
    return call(this.url, 'eth_getBlockByNumber', [tag, false]);
  }

  /** The chain's clock: the timestamp of the latest sealed block. */
  async chainTime(): Promise<bigint> {
    return BigInt((await this.block('latest')).timestamp);
  }

  /** Waits until `latest` moves past the block it is at now (a fresh block has just begun). */
  async nextBlock(): Promise<number> {
    const start = await this.latestNumber();
    return this.until(async () => {
      const now = await this.latestNumber();
      return now > start ? now : undefined;
    }, 'a new block');
  }

  /** Polls `probe` every 20 ms until it answers something, for at most `limitMs`. */
  async until<T>(probe: () => Promise<T | undefined>, what: string, limitMs = 15_000): Promise<T> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async tokenCall(fn: string, args: unknown[], tag = 'latest', from?: string): Promise<any> {
    const data = TOKEN.encodeFunctionData(fn, args);
    const raw = await call<string>(this.url, 'eth_call', [{ to: this.token, data, ...(from ? { from } : {}) }, tag]);
    return TOKEN.decodeFunctionResult(fn, raw)[0];
  }

  balanceOf(address: string, tag = 'latest'): Promise<bigint> {
    return this.tokenCall('balanceOf', [address], tag);
  }

  authorizationState(payer: string, nonce: string, tag = 'latest'): Promise<boolean> {
    return this.tokenCall('authorizationState', [payer, nonce], tag);
  }

  nonceOf(address: string, tag: string): Promise<number> {
    return call<string>(this.url, 'eth_getTransactionCount', [address, tag]).then(Number);
  }

  /** A dry run of a token call from `from` at `pending`: undefined when it would succeed, else the revert reason. */
  async dryRun(from: string, fn: string, args: unknown[]): Promise<string | undefined> {
    try {
      await call(this.url, 'eth_call', [{ from, to: this.token, data: TOKEN.encodeFunctionData(fn, args) }, 'pending']);
      return undefined;
    } catch (error) {
      const reason = revertReason(error);
      if (reason === undefined) throw error;
      return reason;
    }
  }

  /**
   * Signs a token call locally and sends it raw. With `gasLimit` the node's estimate is skipped,
   * so a call that reverts is still mined (and its receipt shows status 0x0).
   */
  async send(wallet: Wallet, fn: string, args: unknown[], gasLimit?: bigint): Promise<string> {
    const data = TOKEN.encodeFunctionData(fn, args);
    const nonce = await this.nonceOf(wallet.address, 'pending');
    const gas = gasLimit ?? BigInt(await call<string>(this.url, 'eth_estimateGas', [{ from: wallet.address, to: this.token, data }, 'pending']));
    const maxFeePerGas = BigInt(await call<string>(this.url, 'eth_gasPrice')) * 2n;
    const raw = await wallet.signTransaction({
      type: 2, chainId: this.chainId, nonce, to: this.token, data, gasLimit: gas,
      maxFeePerGas, maxPriorityFeePerGas: 1_000_000n, value: 0n,
    });
    return call<string>(this.url, 'eth_sendRawTransaction', [raw]);
  }

  /** The receipt once the transaction's block has sealed (at or below `latest`). */
  async sealedReceipt(hash: string): Promise<any> {
    return this.until(async () => {
      const receipt = await call(this.url, 'eth_getTransactionReceipt', [hash]);
      if (!receipt) return undefined;
      return Number(receipt.blockNumber) <= (await this.latestNumber()) ? receipt : undefined;
    }, `transaction ${hash.slice(0, 10)}… to seal`);
  }
}

/** The token's logs in a receipt, decoded with the token kit: name and arguments by name. */
export function decodeLogs(receipt: { logs: { topics: string[]; data: string }[] }): { name: string; args: Record<string, unknown> }[] {
  return receipt.logs.map((log) => {
    const event = decodeTokenEvent(log);
    return { name: event?.name ?? 'unknown', args: Object.fromEntries((event?.args ?? []).map((arg) => [arg.name, arg.value])) };
  });
}
