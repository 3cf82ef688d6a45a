// Everything the authorization commands read from or send to an endpoint, over the extension's
// JSON-RPC client: the token's domain, authorizationState, balances, policy, the chain's clock,
// the capture's dry run (eth_call), signing through the endpoint (eth_signTypedData_v4) and sending
// (eth_sendTransaction for the endpoint's accounts, or a locally signed raw transaction), and
// waiting for the receipt. No vscode import.
import { Interface, Transaction, Wallet, getAddress, type TransactionLike } from 'ethers';
import { STABLE_TOKEN_ABI, EVENT_TOPICS, type TypedDataPayload } from '../../mock-node/tokenKit/index';
import type { RpcClient } from '../rpc/client';
import { describeRpcError, JsonRpcError } from '../rpc/errors';
import type { ChainFacts, DryRun } from './inspector';
import { effectOf, inFlight, sight, type Heads, type ReceiptLike, type Sighting, type Stage } from './evidence';
import type { AuthorizationMessage } from './message';
import type { CaptureRoute, DomainFields, TxOutcome } from './model';

/** Where a search for the consuming transaction stands: blocks [oldest, newest] are read. */
export interface ConsumerSearch {
  /** The range size the endpoint accepts (halved on its -32005 range error). */
  span: number;
  /** The newest block read (head + 1 covers the pending block); -1 before the first read. */
  newest: number;
  /** The oldest block read. */
  oldest: number;
  /** Every block down to 0 was read. */
  complete: boolean;
  /** The consuming transaction, once found. */
  hash?: string;
}

/** A search not started yet: ranges under the seed's recommended 2,000 blocks. */
export const NEW_SEARCH: ConsumerSearch = { span: 1900, newest: -1, oldest: Number.MAX_SAFE_INTEGER, complete: false };

export const tokenInterface = new Interface(STABLE_TOKEN_ABI);

const ERROR_STRING_SELECTOR = '0x08c379a0';

/** The revert reason of a failed eth_call / eth_estimateGas: the Error(string) in `data`, else the message. */
export function revertReason(error: unknown): string {
  if (error instanceof JsonRpcError) {
    const data = typeof error.data === 'string' ? error.data : undefined;
    if (data && data.startsWith(ERROR_STRING_SELECTOR)) {
      try {
        return String(tokenInterface.getAbiCoder().decode(['string'], `0x${data.slice(10)}`)[0]);
      } catch {
        // fall through to the message
      }
    }
    return error.rpcMessage.replace(/^execution reverted: /, '');
  }
  return describeRpcError(error);
}

/** Calldata of the capture for the route, with the bytes-signature form. */
export function captureCalldata(route: CaptureRoute, a: AuthorizationMessage, signature: string): string {
  const fragment = `${route}(address,address,uint256,uint256,uint256,bytes32,bytes)`;
  return tokenInterface.encodeFunctionData(fragment, [a.from, a.to, BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce, signature]);
}

export function cancelCalldata(authorizer: string, nonce: string, signature: string): string {
  return tokenInterface.encodeFunctionData('cancelAuthorization(address,bytes32,bytes)', [authorizer, nonce, signature]);
}

function hexToNumber(hex: unknown): number {
  if (typeof hex !== 'string') throw new Error(`expected a hex quantity, got ${JSON.stringify(hex)}`);
  return Number(BigInt(hex));
}

export interface Receipt {
  status: string;
  blockNumber: string;
  transactionHash: string;
  gasUsed: string;
  logs: { topics: string[] }[];
}

export class AuthorizationChain {
  constructor(readonly client: RpcClient, readonly token: string) {}

  private async read(fn: string, args: unknown[] = [], tag = 'latest'): Promise<ReturnType<Interface['decodeFunctionResult']>> {
    const data = tokenInterface.encodeFunctionData(fn, args);
    const result = await this.client.call<string>('eth_call', [{ to: this.token, data }, tag]);
    return tokenInterface.decodeFunctionResult(fn, result);
  }

  async chainId(): Promise<bigint> {
    return BigInt(await this.client.call<string>('eth_chainId'));
  }

  /** The EIP-712 domain as the token and the chain give it now. */
  async domain(): Promise<DomainFields> {
    const [chainId, name, version] = await Promise.all([this.chainId(), this.read('name'), this.read('version')]);
    return { name: String(name[0]), version: String(version[0]), chainId: chainId.toString(), verifyingContract: getAddress(this.token) };
  }

  async consumed(payer: string, nonce: string, tag = 'pending'): Promise<boolean> {
    return Boolean((await this.read('authorizationState', [payer, nonce], tag))[0]);
  }

  async balanceOf(account: string, tag = 'pending'): Promise<bigint> {
    return BigInt((await this.read('balanceOf', [account], tag))[0] as bigint);
  }

  async symbol(): Promise<string> {
    return String((await this.read('symbol'))[0]);
  }

  /**
   * Unix seconds of the block a capture sent now would run in (the pending block, where the
   * endpoint serves one; else latest): the clock the token's window checks use.
   */
  async now(): Promise<number> {
    const pending = await this.client.call<{ timestamp?: string } | null>('eth_getBlockByNumber', ['pending', false]).catch(() => null);
    if (pending?.timestamp) return hexToNumber(pending.timestamp);
    const block = await this.client.call<{ timestamp: string } | null>('eth_getBlockByNumber', ['latest', false]);
    if (!block) throw new Error('the endpoint has no latest block');
    return hexToNumber(block.timestamp);
  }

  /** Everything the inspector needs, read at `pending` (pre-confirmed state, where a capture sent now would run). */
  async facts(a: AuthorizationMessage): Promise<ChainFacts> {
    const [chainId, name, version, now, consumed, payerBalance, paused, payerBlocked, merchantBlocked] = await Promise.all([
      this.chainId(), this.read('name'), this.read('version'), this.now(), this.consumed(a.from, a.nonce), this.balanceOf(a.from),
      this.optional('paused'), this.optional('isBlacklisted', [a.from]), this.optional('isBlacklisted', [a.to]),
    ]);
    return { chainId, tokenName: String(name[0]), tokenVersion: String(version[0]), now, consumed, payerBalance, paused, payerBlocked, merchantBlocked };
  }

  /** Reads a policy flag a FiatToken has; undefined on a token without it. */
  private async optional(fn: string, args: unknown[] = []): Promise<boolean | undefined> {
    try {
      return Boolean((await this.read(fn, args, 'pending'))[0]);
    } catch {
      return undefined;
    }
  }

  /** The capture as an eth_call from the merchant at `pending` (what the next transaction would see). */
  async dryRun(data: string, from: string): Promise<DryRun> {
    try {
      const gas = await this.client.call<string>('eth_estimateGas', [{ from, to: this.token, data }, 'pending']);
      await this.client.call<string>('eth_call', [{ from, to: this.token, data }, 'pending']);
      return { ok: true, gas: BigInt(gas) };
    } catch (error) {
      if (error instanceof JsonRpcError) return { ok: false, reason: revertReason(error) };
      throw error;
    }
  }

  /** latest, and the confirmed head: `depth` blocks deep, or (depth 0) the endpoint's `safe` block. */
  async heads(depth: number): Promise<Heads> {
    const latest = hexToNumber(await this.client.call<string>('eth_blockNumber'));
    if (depth > 0) return { latest, confirmed: latest - depth + 1, confirmedBy: `${depth} block${depth === 1 ? '' : 's'} deep` };
    const safe = await this.client.call<{ number: string } | null>('eth_getBlockByNumber', ['safe', false]).catch(() => null);
    if (!safe) return { latest, confirmed: -1, confirmedBy: "the endpoint's safe block (the endpoint has none)" };
    const confirmed = hexToNumber(safe.number);
    return { latest, confirmed, confirmedBy: `the endpoint's safe block (${confirmed})` };
  }

  /** One transaction as the chain shows it now, with its effect on the authorization. */
  async sighting(hash: string, heads: Heads, a: AuthorizationMessage): Promise<Sighting> {
    const receipt = await this.client.call<ReceiptLike | null>('eth_getTransactionReceipt', [hash]);
    const known = receipt !== null || (await this.client.call<unknown>('eth_getTransactionByHash', [hash])) !== null;
    return sight(hash, receipt, known, heads, (logs) => effectOf(this.token, a, logs));
  }

  /**
   * The transaction whose AuthorizationUsed or AuthorizationCanceled log consumed the nonce: the
   * token's logs read back from pending in ranges the endpoint accepts (a -32005 range error halves
   * the range), at most `maxRequests` requests per call. `progress` carries the search between calls
   * (blocks already read), so a deep search continues where it stopped.
   */
  async findConsumer(payer: string, nonce: string, progress: ConsumerSearch, maxRequests = 40): Promise<ConsumerSearch> {
    const head = hexToNumber(await this.client.call<string>('eth_blockNumber'));
    const topics = [[EVENT_TOPICS.AuthorizationUsed, EVENT_TOPICS.AuthorizationCanceled], `0x${payer.toLowerCase().slice(2).padStart(64, '0')}`, nonce.toLowerCase()];
    let { span, newest, oldest } = progress;
    const quantity = (n: number): string => `0x${n.toString(16)}`;
    for (let requests = 0; requests < maxRequests; requests++) {
      // Blocks sealed since the last search and the pending block first; then older ranges down to 0.
      const upward = newest < head || newest < 0;
      if (!upward && oldest <= 0) break;
      const from = upward ? Math.max(0, newest < 0 ? head - span + 1 : Math.min(newest + 1, head)) : Math.max(0, oldest - span);
      const to = upward ? 'pending' : quantity(oldest - 1);
      if (upward && newest >= 0 && head - from + 1 > span) {
        // More new blocks than one range holds: read them as older ranges below a fresh start.
        newest = -1;
        oldest = Number.MAX_SAFE_INTEGER;
        continue;
      }
      let logs: { transactionHash: string }[];
      try {
        logs = await this.client.call<{ transactionHash: string }[]>('eth_getLogs', [{ address: this.token, fromBlock: quantity(from), toBlock: to, topics }]);
      } catch (error) {
        if (error instanceof JsonRpcError && error.code === -32005 && span > 1) {
          span = Math.max(1, Math.floor(span / 2));
          continue;
        }
        throw error;
      }
      if (upward) {
        oldest = Math.min(oldest, from);
        newest = head;
      } else {
        oldest = from;
      }
      if (logs[0]) return { span, newest, oldest, complete: false, hash: logs[0].transactionHash };
    }
    return { span, newest, oldest, complete: oldest <= 0 && newest >= head };
  }

  async accounts(): Promise<string[]> {
    try {
      return (await this.client.call<string[]>('eth_accounts')).map((a) => getAddress(a));
    } catch {
      return [];
    }
  }

  /** eth_signTypedData_v4 by an account the endpoint holds (a dev node's accounts). */
  async signTypedDataOnEndpoint(signer: string, payload: TypedDataPayload): Promise<string> {
    return this.client.call<string>('eth_signTypedData_v4', [signer, JSON.stringify(payload)]);
  }

  /** Sends a call to the token from an account the endpoint holds. */
  async sendFromEndpointAccount(from: string, data: string, gas?: bigint): Promise<string> {
    return this.client.call<string>('eth_sendTransaction', [{ from, to: this.token, data, ...(gas ? { gas: `0x${gas.toString(16)}` } : {}) }]);
  }

  /** Signs a call to the token with a local key and sends it raw. */
  async sendFromLocalKey(privateKey: string, data: string, gas?: bigint): Promise<string> {
    const wallet = new Wallet(privateKey);
    const [chainId, nonce, block, tip] = await Promise.all([
      this.chainId(),
      this.client.call<string>('eth_getTransactionCount', [wallet.address, 'pending']),
      this.client.call<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]),
      this.client.call<string>('eth_maxPriorityFeePerGas').catch(() => '0x3b9aca00'),
    ]);
    const gasLimit = gas ?? BigInt(await this.client.call<string>('eth_estimateGas', [{ from: wallet.address, to: this.token, data }, 'pending']));
    const baseFee = BigInt(block.baseFeePerGas ?? '0x0');
    const tx: TransactionLike = {
      type: 2, chainId, nonce: Number(BigInt(nonce)), to: this.token, data, value: 0n, gasLimit,
      maxPriorityFeePerGas: BigInt(tip), maxFeePerGas: baseFee * 2n + BigInt(tip),
    };
    const raw = await wallet.signTransaction(Transaction.from(tx));
    return this.client.call<string>('eth_sendRawTransaction', [raw]);
  }

  /** Polls for the receipt; `pending` outcome when none arrives within `timeoutMs`. */
  async waitForReceipt(hash: string, timeoutMs: number, pollMs = 150): Promise<TxOutcome> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const receipt = await this.client.call<Receipt | null>('eth_getTransactionReceipt', [hash]);
      if (receipt) {
        return { hash, status: receipt.status === '0x1' ? 'success' : 'reverted', blockNumber: hexToNumber(receipt.blockNumber) };
      }
      if (Date.now() > deadline) return { hash, status: 'pending' };
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /**
   * Follows a transaction through its stages until it is sealed into a block (included), reverts or
   * is dropped, or `timeoutMs` passes; `onStage` hears each new stage (submitted, pre-confirmed, …).
   */
  async follow(hash: string, a: AuthorizationMessage, depth: number, timeoutMs: number, onStage: (s: Sighting, heads: Heads) => void, pollMs = 150): Promise<{ sighting: Sighting; heads: Heads }> {
    const deadline = Date.now() + timeoutMs;
    let last: Stage | undefined;
    for (;;) {
      const heads = await this.heads(depth);
      const sighting = await this.sighting(hash, heads, a);
      if (sighting.stage !== last) onStage(sighting, heads);
      last = sighting.stage;
      if (!inFlight(sighting) || Date.now() > deadline) return { sighting, heads };
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
