// What a JSON-RPC method handler gets: parsed-on-demand positional params and the node's
// services. Handlers return plain JSON values (or promises of them) and throw RpcError.
import type { Chain } from '../../chain/chain';
import type { DevAccounts } from '../../execution/devAccounts';
import type { NativeContracts } from '../../execution/execute';
import type { Impersonation } from '../../execution/impersonation';
import type { Logger } from '../../logger';
import type { MockNodeOptions } from '../../options';

export type ProfileName = 'public' | 'dedicated' | 'internal';

export interface NodeServices {
  readonly options: MockNodeOptions;
  readonly chain: Chain;
  readonly accounts: DevAccounts;
  readonly contracts: NativeContracts;
  /** Senders eth_sendTransaction sends for without a key (anvil_impersonateAccount). */
  readonly impersonation: Impersonation;
  readonly logger: Logger;
  /** On a forked node: anvil_reset({ forking }) starts the chain again from another fork block (or upstream URL). */
  readonly refork?: (forking: { url?: string; blockNumber?: bigint }) => Promise<void>;
}

export interface MethodContext {
  readonly node: NodeServices;
  readonly profile: ProfileName;
}

export type MethodHandler = (params: readonly unknown[], ctx: MethodContext) => unknown;
export type MethodTable = Readonly<Record<string, MethodHandler>>;

/**
 * How a JSON-RPC method asks the chain for a change (an automined transaction, evm_revert, a state
 * setter): answered as soon as the answer is known, the rest done right after the answer is
 * written and before any other request is served (Chain.finishing).
 */
export const ANSWER_FIRST = { answerFirst: true } as const;
