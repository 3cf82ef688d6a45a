// Starts and stops the bundled mock node inside the extension host's own Node process, on a free
// port (the previous one again on restart, when free), logs to a LogOutputChannel (its own lines
// and, through nodeLogBridge, the node's), and publishes its public and dedicated profiles as
// endpoints while it runs. The mock node's code is the
// separate bundle dist/mock-node-lib.js (built by esbuild.mjs from mock-node/index.ts) and loads
// only when first started: bundled into dist/extension.js it would triple the extension's load time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MockNodeOptionsInput, RunningMockNode } from '../../mock-node/index';
import { TOKEN_SLOTS, balanceSlot, slotHex } from '../../mock-node/tokenKit/index';

type MockNodeLibrary = typeof import('../../mock-node/index');

/** Loads the mock node's library bundle (once; Node caches the module). */
export function loadMockNodeLibrary(extensionPath: string): MockNodeLibrary {
  const file = path.join(extensionPath, 'dist', 'mock-node-lib.js');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build`);
  // A runtime require of a path: esbuild leaves it alone, so the library stays out of the extension bundle.
  return require(file) as MockNodeLibrary;
}
import type { Endpoint, EndpointRegistry } from '../rpc/endpoints';
import { maskUrl } from '../rpc/endpointUrl';
import { readMockNodeOptionsSetting } from '../settings';
import type { SlotSetting } from '../explorer/chainData';
import { channelSink, followChannelLevel, thresholdForChannel } from './nodeLogBridge';
import { mockEndpointNames } from './mockEndpointNames';

export const MOCK_RUNNING_CONTEXT_KEY = 'chainExplorer.mockNodeRunning';
export const MOCK_STOPPED_CONTEXT_KEY = 'chainExplorer.mockNodeStopped';

/** Storage slots worth watching on the built-in token (FiatToken v2.2 layout). */
function tokenSlots(token: string, holder: string): SlotSetting[] {
  return [
    { address: token, slot: slotHex(TOKEN_SLOTS.totalSupply), label: `token totalSupply (slot ${TOKEN_SLOTS.totalSupply})` },
    { address: token, slot: slotHex(TOKEN_SLOTS.pauserAndPaused), label: `token pauser + paused flag (slot ${TOKEN_SLOTS.pauserAndPaused})` },
    {
      address: token,
      slot: `0x${balanceSlot(holder).toString(16).padStart(64, '0')}`,
      label: `token balanceOf ${holder.slice(0, 8)}… (slot ${TOKEN_SLOTS.balanceAndBlacklistStates} mapping)`,
    },
  ];
}

export class MockNodeService implements vscode.Disposable {
  private node: RunningMockNode | undefined;
  private levelFollower: vscode.Disposable | undefined;
  private lastPort: number | undefined;
  private starting: Promise<RunningMockNode> | undefined;
  private readonly emitter = new vscode.EventEmitter<RunningMockNode | undefined>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly registry: EndpointRegistry,
    readonly output: vscode.LogOutputChannel,
    private readonly extensionPath: string,
  ) {
    void vscode.commands.executeCommand('setContext', MOCK_RUNNING_CONTEXT_KEY, false);
  }

  get running(): RunningMockNode | undefined {
    return this.node;
  }

  /**
   * Options from the chainExplorer.mockNode.options setting, under any given here. Exposure keys
   * (host, cors, stateFile …) come from user settings only; an untrusted workspace sets nothing.
   */
  private options(extra: MockNodeOptionsInput): MockNodeOptionsInput {
    const { options: fromSettings, ignored } = readMockNodeOptionsSetting();
    if (ignored.length > 0) {
      this.output.warn(
        `chainExplorer.mockNode.options: ${ignored.join(', ')} ignored from the workspace settings (${vscode.workspace.isTrusted ? 'set them in your user settings' : 'the workspace is not trusted'})`,
      );
    }
    return { ...fromSettings, ...extra, quiet: false, logLevel: thresholdForChannel(this.output.logLevel), logSink: channelSink(this.output) };
  }

  async start(extra: MockNodeOptionsInput = {}): Promise<RunningMockNode> {
    if (this.node) return this.node;
    if (this.starting) return this.starting;
    this.starting = this.launch(extra).finally(() => { this.starting = undefined; });
    return this.starting;
  }

  private async launch(extra: MockNodeOptionsInput): Promise<RunningMockNode> {
    const { startMockNode } = loadMockNodeLibrary(this.extensionPath);
    const options = this.options(extra);
    const started = Date.now();
    let node: RunningMockNode;
    try {
      node = await startMockNode({ ...options, port: options.port ?? this.lastPort ?? 0 });
    } catch (error) {
      if (options.port === undefined && this.lastPort !== undefined && (error as { code?: string }).code === 'EADDRINUSE') {
        node = await startMockNode({ ...options, port: 0 });
      } else {
        this.output.error(`mock node failed to start: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
    }
    this.node = node;
    this.lastPort = node.port;
    this.levelFollower = followChannelLevel(this.output, node.core.logger);
    const o = node.options;
    this.output.info(`mock node started in ${Date.now() - started} ms: public ${node.url}, dedicated ${maskUrl(node.dedicatedUrl)}`);
    this.output.info(`chain id ${node.chainId}, block time ${o.blockTimeMs} ms, flashblocks ${o.auto ? `every ${o.flashblockMs} ms` : 'manual'}, pending identity ${o.pendingIdentity}`);
    this.output.info(`token ${node.tokenAddress} (${o.token.name}, ${o.token.symbol}); dev accounts: ${node.accounts.map((a) => a.address).join(', ')}`);
    this.publish(node);
    await this.setContext(true);
    this.emitter.fire(node);
    return node;
  }

  private publish(node: RunningMockNode): void {
    const accounts = node.accounts.slice(0, 3).map((a) => a.address);
    const common = {
      source: 'mock' as const,
      tokenAddress: node.tokenAddress,
      defaultAccounts: accounts,
      defaultStorageSlots: tokenSlots(node.tokenAddress, accounts[0]),
    };
    const names = mockEndpointNames(node.chainLabel);
    const endpoints: Endpoint[] = [
      // The node answers WebSocket on the same port and paths as HTTP.
      { ...common, id: 'ep:mock:public', name: names.public, url: node.url, displayUrl: node.url, wsUrl: node.wsUrl },
      {
        ...common, id: 'ep:mock:dedicated', name: names.dedicated, url: node.dedicatedUrl, displayUrl: maskUrl(node.dedicatedUrl),
        wsUrl: node.dedicatedWsUrl,
      },
    ];
    this.registry.setMockEndpoints(endpoints);
  }

  async stop(): Promise<void> {
    await this.halt(false);
  }

  /** Stops the node; on a restart its endpoints stay listed, so the tree keeps what was expanded. */
  private async halt(restarting: boolean): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    const node = this.node;
    if (!node) return;
    this.node = undefined;
    await node.stop();
    this.levelFollower?.dispose();
    this.levelFollower = undefined;
    this.output.info(restarting ? 'mock node stopped for a restart' : 'mock node stopped');
    if (restarting) return;
    this.registry.setMockEndpoints([]);
    await this.setContext(false);
    this.emitter.fire(undefined);
  }

  async restart(extra: MockNodeOptionsInput = {}): Promise<RunningMockNode> {
    await this.halt(true);
    try {
      return await this.start(extra);
    } catch (error) {
      this.registry.setMockEndpoints([]);
      await this.setContext(false);
      this.emitter.fire(undefined);
      throw error;
    }
  }

  private async setContext(running: boolean): Promise<void> {
    await vscode.commands.executeCommand('setContext', MOCK_RUNNING_CONTEXT_KEY, running);
    await vscode.commands.executeCommand('setContext', MOCK_STOPPED_CONTEXT_KEY, !running);
  }

  dispose(): void {
    void this.stop();
    this.emitter.dispose();
  }
}
