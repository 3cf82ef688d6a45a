// Control methods for the built-in token (tests and demos): mint without a minter, pause and
// blocklist without the owner's transactions. They change the token's storage exactly where the
// token keeps these variables, in the current state (`latest` and `pending` see them at once), and
// log no events (like anvil_setStorageAt); use the owner's `mint` / `pause` / `blacklist` transactions for events.
import { invalidInput, invalidParams } from '../errors';
import { parseAddress, parseAmount, parseBoolean } from '../params';
import { storageOf } from '../../execution/execute';
import { StableToken, TokenState } from '../../execution/token/index';
import { MAX_BALANCE } from '../../tokenKit/index';
import { ANSWER_FIRST, type MethodContext, type MethodTable } from './types';

function tokenOf(ctx: MethodContext): StableToken {
  const contract = ctx.node.contracts.get(ctx.node.options.token.address.toLowerCase());
  if (!(contract instanceof StableToken)) throw invalidInput('the built-in token is not deployed on this node');
  return contract;
}

/** A change to the token's storage on top of pending, all or nothing (the chain's writer applies it). */
function changeToken(ctx: MethodContext, change: (state: TokenState) => void): Promise<void> {
  const token = tokenOf(ctx);
  return ctx.node.chain.applySystemChange((draft) => change(new TokenState(storageOf(draft, token.address))), ANSWER_FIRST);
}

export const tokenControlMethods: MethodTable = {
  /** mock_mint(to, amount): amount in base units (6 decimals), hex quantity, decimal string or number. */
  mock_mint: async (params, ctx) => {
    const to = parseAddress(params[0], 0, 'to');
    const amount = parseAmount(params[1], 1);
    await changeToken(ctx, (state) => {
      const balance = state.balanceOf(to) + amount;
      if (balance > MAX_BALANCE) throw invalidParams('invalid argument 1: the balance would exceed 2^255 - 1');
      state.setBalanceKeepingFlag(to, balance);
      state.setTotalSupply(state.totalSupply() + amount);
    });
    return true;
  },
  /** mock_setPaused(paused). */
  mock_setPaused: async (params, ctx) => {
    const paused = parseBoolean(params[0], 0, 'paused');
    await changeToken(ctx, (state) => state.setPaused(paused));
    return true;
  },
  /** mock_setBlocked(address, blocked): sets or clears the blocklist flag (bit 255 of the balance slot). */
  mock_setBlocked: async (params, ctx) => {
    const account = parseAddress(params[0], 0, 'account');
    const blocked = parseBoolean(params[1], 1, 'blocked');
    await changeToken(ctx, (state) => state.setBlacklisted(account, blocked));
    return true;
  },
};
