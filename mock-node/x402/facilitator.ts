// The node's own x402 facilitator: `supported`, `verify` and `settle` as x402's HTTP facilitator
// client calls them, for the `exact` scheme on this chain with the built-in token. It reaches the
// chain the way any facilitator reaches a node, through JSON-RPC (the node's handler, in-process,
// with the `internal` profile so no limit or fault meets it): eth_call at `pending` to simulate,
// eth_sendTransaction from its dev account to settle, then it waits for the transaction's
// pre-confirmation so the answer comes once the Transfer is in the pending block.
import { scrubSecrets } from '../redact';
import { getAddress, zeroPadValue } from 'ethers';
import type { IncludedTransaction } from '../chain/types';
import type { Hex } from '../encoding/hex';
import { EVENT_TOPICS, TOKEN_DECIMALS } from '../tokenKit';
import type { DevAccount } from '../execution/devAccounts';
import { OptionError } from '../options';
import type { RpcHandler, RpcResponse } from '../rpc/handler';
import type { NodeServices } from '../rpc/methods/types';
import { readToken, reasonForRevert, transferWithAuthorizationData, verifyExactEvm, type CallOutcome, type TokenChain } from './exactEvm';
import {
  caip2Network, EXACT_SCHEME, Reason, SETTLE_PRECONFIRMATION_TIMEOUT_MS, v1NetworkName,
  type FacilitatorReply, type SettleResponse, type SupportedKind, type SupportedResponse, type VerifyResponse, type X402Version,
} from './wire/protocol';
import { readPaymentRequest, type PaymentRequest, type RequestProblem } from './wire/requests';

class NodeRpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

/** The dev account the facilitator settles from: an index, an address of a dev account, or by default the last one. */
export function facilitatorAccount(accounts: readonly DevAccount[], choice: number | string | undefined): DevAccount {
  if (choice === undefined) return accounts[accounts.length - 1];
  if (typeof choice === 'number') {
    if (!Number.isInteger(choice) || choice < 0 || choice >= accounts.length) {
      throw new OptionError(`x402Account must be a dev account index from 0 to ${accounts.length - 1}, or a dev account's address; got ${choice}`);
    }
    return accounts[choice];
  }
  const found = accounts.find((a) => a.address.toLowerCase() === String(choice).toLowerCase());
  if (!found) throw new OptionError(`x402Account ${choice} is not one of the node's dev accounts (the facilitator signs with a dev account's key)`);
  return found;
}

export class X402Facilitator {
  readonly signer: DevAccount;
  private readonly chain: TokenChain;
  /** payer:nonce of settlements in flight: a second settle of the same authorization is refused at once. */
  private readonly settling = new Set<string>();

  constructor(
    private readonly services: NodeServices,
    private readonly handle: RpcHandler,
    choice?: number | string,
  ) {
    this.signer = facilitatorAccount(services.accounts.list, choice);
    const from = this.signer.address.toLowerCase();
    this.chain = {
      chainId: services.options.chainId,
      now: () => services.chain.now(),
      call: async (to, data): Promise<CallOutcome> => {
        try {
          return { ok: true, data: (await this.rpc('eth_call', [{ from, to, data }, 'pending'])) as string };
        } catch (error) {
          if (!(error instanceof NodeRpcError)) throw error;
          return { ok: false, reason: error.message.replace(/^execution reverted: /, '') };
        }
      },
      code: async (address) => (await this.rpc('eth_getCode', [address, 'pending'])) as string,
    };
  }

  /** The network name this chain has in a protocol version (undefined: that version cannot name it). */
  networkFor(version: X402Version): string | undefined {
    return version === 2 ? caip2Network(this.services.options.chainId) : v1NetworkName(this.services.options.chainId);
  }

  /** `GET /supported`: the `exact` scheme on this chain, v2 always and v1 when the chain has a v1 name; the token in `extra`. */
  async supported(): Promise<FacilitatorReply<SupportedResponse>> {
    const asset = getAddress(this.services.options.token.address);
    const [name, version] = await Promise.all([readToken(this.chain, asset, 'name', []), readToken(this.chain, asset, 'version', [])]);
    const extra = { asset, name, version, decimals: TOKEN_DECIMALS };
    const kinds: SupportedKind[] = [];
    for (const x402Version of [2, 1] as const) {
      const network = this.networkFor(x402Version);
      if (network) kinds.push({ x402Version, scheme: EXACT_SCHEME, network, extra });
    }
    return { status: 200, body: { kinds, extensions: [], signers: { 'eip155:*': [this.signer.address] } } };
  }

  /** `POST /verify`. */
  async verify(raw: unknown): Promise<FacilitatorReply<VerifyResponse>> {
    try {
      const read = this.accept(raw);
      if ('problem' in read) return { status: read.problem.malformed ? 400 : 200, body: verifyRefusal(read.problem) };
      const result = await verifyExactEvm(this.chain, read.request);
      this.services.logger.debug(`x402 verify: ${result.isValid ? 'valid' : result.invalidReason}`, { payer: result.payer });
      return { status: 200, body: result };
    } catch (error) {
      this.services.logger.error('x402 verify failed with an internal error', { error: (error as Error)?.stack ?? String(error) });
      return { status: 500, body: { isValid: false, invalidReason: Reason.unexpectedVerifyError, invalidMessage: scrubSecrets((error as Error)?.message ?? String(error)) } };
    }
  }

  /** `POST /settle`: re-verifies (with the simulation), submits transferWithAuthorization, answers once it is pre-confirmed. */
  async settle(raw: unknown): Promise<FacilitatorReply<SettleResponse>> {
    const network = typeof (raw as { paymentRequirements?: { network?: unknown } })?.paymentRequirements?.network === 'string'
      ? ((raw as { paymentRequirements: { network: string } }).paymentRequirements.network)
      : '';
    try {
      const read = this.accept(raw);
      if ('problem' in read) return { status: read.problem.malformed ? 400 : 200, body: settleRefusal(read.problem, network) };
      return { status: 200, body: await this.settleVerified(read.request) };
    } catch (error) {
      this.services.logger.error('x402 settle failed with an internal error', { error: (error as Error)?.stack ?? String(error) });
      return { status: 500, body: { success: false, errorReason: Reason.unexpectedSettleError, errorMessage: scrubSecrets((error as Error)?.message ?? String(error)), transaction: '', network } };
    }
  }

  private async settleVerified(request: PaymentRequest): Promise<SettleResponse> {
    const network = request.requirements.network;
    const payer = request.payer;
    const failed = (errorReason: string, errorMessage?: string, transaction = ''): SettleResponse => {
      this.services.logger.info(`x402 settle refused: ${errorReason}`, { payer, transaction: transaction || undefined });
      return { success: false, errorReason, ...(errorMessage ? { errorMessage } : {}), ...(payer ? { payer } : {}), transaction, network };
    };
    const authorization = request.authorization;
    const key = authorization ? `${authorization.from}:${authorization.nonce}` : undefined;
    if (key && this.settling.has(key)) return failed(Reason.nonceUsed, 'a settlement of this authorization is already in flight');
    if (key) this.settling.add(key);
    try {
      const verified = await verifyExactEvm(this.chain, request);
      if (!verified.isValid) return failed(verified.invalidReason ?? Reason.transactionFailed, verified.invalidMessage);
      const { requirements } = request;
      const data = transferWithAuthorizationData(authorization!, request.signature!);
      let hash: Hex;
      try {
        hash = (await this.rpc('eth_sendTransaction', [{ from: this.signer.address, to: requirements.asset, data }])) as Hex;
      } catch (error) {
        if (!(error instanceof NodeRpcError)) throw error;
        return failed(reasonForRevert(error.message), error.message);
      }
      let included: IncludedTransaction;
      try {
        included = await this.services.chain.waitForPreconfirmation(hash, SETTLE_PRECONFIRMATION_TIMEOUT_MS);
      } catch (error) {
        return failed(Reason.settlementPending, (error as Error).message, hash);
      }
      if (included.receipt.status !== 1) {
        const reason = included.receipt.revertReason ?? 'reverted';
        return failed(Reason.transactionFailed, `transferWithAuthorization reverted: ${reason}`, hash);
      }
      if (!hasTransfer(included, requirements.asset, authorization!)) {
        return failed(Reason.transferEventMismatch, 'the receipt has no Transfer of the authorized amount to payTo', hash);
      }
      this.services.logger.info('x402 settled', { transaction: hash, payer, payTo: requirements.payTo, value: authorization!.value, network });
      return { success: true, ...(payer ? { payer } : {}), transaction: hash, network };
    } finally {
      if (key) this.settling.delete(key);
    }
  }

  /** Reads a request and checks it names a scheme and network this facilitator serves. */
  private accept(raw: unknown): { request: PaymentRequest } | { problem: RequestProblem } {
    const read = readPaymentRequest(raw);
    if (!read.ok) return { problem: read.problem };
    const { request } = read;
    const base = { malformed: false, payer: request.payer, network: request.requirements.network };
    if (request.requirements.scheme !== EXACT_SCHEME) {
      return { problem: { ...base, reason: Reason.unsupportedScheme, message: `scheme ${request.requirements.scheme} is not supported; this facilitator serves ${EXACT_SCHEME}` } };
    }
    const expected = this.networkFor(request.version);
    if (request.requirements.network !== expected) {
      const message = expected
        ? `network ${request.requirements.network} is not served here; this facilitator settles on ${expected} (x402 v${request.version})`
        : `chain id ${this.services.options.chainId} has no x402 v1 network name; use x402 v2 with ${this.networkFor(2)}`;
      return { problem: { ...base, reason: Reason.invalidNetwork, message } };
    }
    return { request };
  }

  private async rpc(method: string, params: unknown[]): Promise<unknown> {
    const reply = await this.handle({ jsonrpc: '2.0', id: 1, method, params }, 'internal');
    const body = reply.body as RpcResponse;
    if (body.error) throw new NodeRpcError(body.error.code, body.error.message, body.error.data);
    return body.result;
  }
}

function hasTransfer(included: IncludedTransaction, asset: string, authorization: { from: string; to: string; value: bigint }): boolean {
  const from = zeroPadValue(authorization.from, 32);
  const to = zeroPadValue(authorization.to, 32);
  return included.receipt.logs.some(
    (log) =>
      log.address.toLowerCase() === asset &&
      log.topics[0] === EVENT_TOPICS.Transfer &&
      log.topics[1]?.toLowerCase() === from &&
      log.topics[2]?.toLowerCase() === to &&
      BigInt(log.data) === authorization.value,
  );
}

function verifyRefusal(problem: RequestProblem): VerifyResponse {
  return { isValid: false, invalidReason: problem.reason, invalidMessage: problem.message, ...(problem.payer ? { payer: problem.payer } : {}) };
}

function settleRefusal(problem: RequestProblem, network: string): SettleResponse {
  return {
    success: false,
    errorReason: problem.reason,
    errorMessage: problem.message,
    ...(problem.payer ? { payer: problem.payer } : {}),
    transaction: '',
    network: problem.network ?? network,
  };
}
