// Mock-node commands for demonstrating what can still stop a capture after the payer signed (the
// seed's failure rows) without hand-written requests: send tokens away from the payer, pause and
// unpause the token, blocklist and unblocklist an account, advance the chain's clock. Each asks
// (quick picks of the dev accounts) or takes an argument object that answers; each changes only
// the bundled mock node.
import * as vscode from 'vscode';
import { Interface } from 'ethers';
import { STABLE_TOKEN_ABI } from '../../mock-node/tokenKit/index';
import { InputError, parseAddress, parseTokenAmount } from '../authorizations/model';
import { Dismissed, vscodePrompts, Wizard, type Prompts } from '../authorizations/commands/prompts';
import type { MockNodeService } from './mockNodeService';

const token = new Interface(STABLE_TOKEN_ABI);

export interface SendTokenArgs {
  from?: string;
  to?: string;
  /** Token units, e.g. "100". */
  amount?: string;
}

export interface AccountArgs {
  account?: string;
}

export interface AdvanceTimeArgs {
  minutes?: number;
}

export interface TokenDemoCommands {
  /** The prompts (VS Code's; replaceable by tests). */
  ui: Prompts;
  lastError?: string;
  disposables: vscode.Disposable[];
}

export function registerTokenDemoCommands(service: MockNodeService): TokenDemoCommands {
  const commands: TokenDemoCommands = { ui: vscodePrompts, disposables: [] };
  const node = () => {
    const running = service.running;
    if (!running) throw new InputError('start the mock node first: these commands change only the bundled mock node');
    return running;
  };
  const accountPick = async (w: Wizard, placeHolder: string, exclude?: string): Promise<string> => {
    const items = node().accounts.filter((a) => a.address !== exclude).map((a, i) => ({ label: a.address, description: `dev account ${i}` }));
    return (await w.pick(items, { placeHolder, ignoreFocusOut: true })).label;
  };
  const register = <A extends object>(id: string, run: (w: Wizard, args: A) => Promise<unknown>) => vscode.commands.registerCommand(`chainExplorer.mockNode.${id}`, async (arg?: A) => {
    commands.lastError = undefined;
    try {
      return await run(new Wizard(commands.ui, arg === undefined), arg ?? ({} as A));
    } catch (error) {
      if (error instanceof Dismissed) return undefined;
      commands.lastError = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`Mock node: ${commands.lastError}`);
      return undefined;
    }
  });
  const done = (message: string): void => {
    service.output.info(message);
    vscode.window.setStatusBarMessage(message, 4000);
  };

  commands.disposables.push(
    register<SendTokenArgs>('sendToken', async (w, args) => {
      const from = parseAddress(args.from ?? await accountPick(w, 'Send tokens from (e.g. the payer, moving the funds away)'), 'from');
      const to = parseAddress(args.to ?? await accountPick(w, 'Send them to', from), 'to');
      const amount = parseTokenAmount(args.amount ?? await w.input({ prompt: 'Amount in token units (6 decimals)', placeHolder: '100', ignoreFocusOut: true }));
      const running = node();
      const hash = await running.request('eth_sendTransaction', [{ from, to: running.tokenAddress, data: token.encodeFunctionData('transfer', [to, amount]) }]) as string;
      done(`token transfer ${hash}: ${amount} base units ${from} → ${to}`);
      return hash;
    }),
    register<object>('pauseToken', async () => {
      await node().request('mock_setPaused', [true]);
      done('token paused: every transfer, including a capture, reverts with "Pausable: paused"');
      return true;
    }),
    register<object>('unpauseToken', async () => {
      await node().request('mock_setPaused', [false]);
      done('token unpaused');
      return true;
    }),
    register<AccountArgs>('blocklist', async (w, args) => {
      const account = parseAddress(args.account ?? await accountPick(w, 'Account to blocklist (e.g. the payer)'), 'account');
      await node().request('mock_setBlocked', [account, true]);
      done(`${account} blocklisted: its transfers revert with "Blacklistable: account is blacklisted"`);
      return account;
    }),
    register<AccountArgs>('unblocklist', async (w, args) => {
      const account = parseAddress(args.account ?? await accountPick(w, 'Account to take off the blocklist'), 'account');
      await node().request('mock_setBlocked', [account, false]);
      done(`${account} taken off the blocklist`);
      return account;
    }),
    register<AdvanceTimeArgs>('advanceTime', async (w, args) => {
      const minutes = args.minutes ?? Number(await w.input({
        prompt: 'Advance the chain clock by minutes (a block is mined at the new time)', value: '16', ignoreFocusOut: true,
        validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) > 0 ? undefined : 'a whole number of minutes'),
      }));
      if (!Number.isSafeInteger(minutes) || minutes <= 0) throw new InputError('minutes must be a whole number above 0');
      const running = node();
      await running.request('evm_increaseTime', [minutes * 60]);
      await running.request('evm_mine', []);
      done(`chain clock advanced by ${minutes} min; a block was mined at the new time`);
      return minutes;
    }),
  );
  return commands;
}
