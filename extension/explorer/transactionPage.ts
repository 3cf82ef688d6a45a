// The transaction page: a read-only document (scheme chain-tx) for one transaction on one
// endpoint, re-read while it is seen so it follows the transaction from the queue through
// pre-confirmation and inclusion to safe and finalized (or a reorg dropping it). Addresses, hashes,
// the block and a consumed authorization are links. The text is transactionPageText.ts's.
//
// What it costs while nothing changes: nothing, where the explorer follows the page's endpoint
// (its news say when the chain moved); otherwise one small request per check (the heads the
// stage depends on) while the page is in a visible editor, the full read only when they moved.
// A page not in a visible editor is not read; it is read once when it shows again.
import * as vscode from 'vscode';
import { RpcClient } from '../rpc/client';
import { JsonRpcError } from '../rpc/errors';
import type { Endpoint, EndpointRegistry } from '../rpc/endpoints';
import { readSettings } from '../settings';
import { flashblockIndexOf } from './blockTitle';
import type { BlockJson } from './chainData';
import { ChainLookups } from './chainLookups';
import type { AbiBook, DecodeContext } from './decoding';
import { EndpointReader } from './endpointReader';
import { GO_TO_COMMAND } from './blockNodes';
import { hexToBigInt, shortHex } from './format';
import { transactionPageText, transactionStage, type PageData, type Stage, type TraceFrame } from './transactionPageText';

export const TRANSACTION_SCHEME = 'chain-tx';
export const OPEN_TRANSACTION_COMMAND = 'chainExplorer.openTransaction';
export const SHOW_AUTHORIZATION_COMMAND = 'chainExplorer.authorizations.show';

interface Page {
  endpoint: Endpoint;
  hash: string;
  lookups: ChainLookups;
  ctx?: DecodeContext;
  text: string;
  /** The block it was last seen in (to tell a reorg drop from never known). */
  lastBlock?: bigint;
  flashblock?: number;
  /** The call trace, read once per block hash. */
  trace?: { blockHash: string; value: PageData['trace'] };
  busy?: Promise<void>;
  /** Finalized: nothing more will change, so it is not read again. */
  done?: boolean;
  /** The stage as of the last read (what the next check has to look at). */
  stage?: Stage['kind'];
  /** What the last read saw of the heads the stage depends on (probeKey()). */
  probe?: string;
  /** The chain may have moved while the page was not seen: read it when it shows again. */
  stale?: boolean;
}

/** How the pages learn that the chain moved on an endpoint without reading it themselves. */
export interface PageFollow {
  /**
   * Whether the explorer follows the endpoint now, so its changes arrive by `chainMoved`
   * (`pending`: the page needs to see the pending block change too, not only new heads).
   */
  followed(endpointId: string, pending: boolean): boolean;
}

/** Whether a page at this stage can still change with the pending block (until it is included). */
const needsPending = (stage: Stage['kind'] | undefined): boolean => stage !== 'included' && stage !== 'safe';

/** Heads a page's stage depends on: the latest block, and the pending block until it is included. */
function probeRequests(stage: Stage['kind'] | undefined): { method: string; params: unknown[] }[] {
  const latest = { method: 'eth_getBlockByNumber', params: ['latest', false] };
  return needsPending(stage) ? [latest, { method: 'eth_getBlockByNumber', params: ['pending', false] }] : [latest];
}

/** The identity of those heads: equal keys, nothing the page shows can have changed. */
function probeKey(blocks: (BlockJson | null | undefined)[]): string {
  return JSON.stringify(blocks.map((b) => (b ? [b.number, b.hash, b.stateRoot, b.transactions?.length] : null)));
}

export function transactionUri(endpoint: Endpoint, hash: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TRANSACTION_SCHEME, path: `/Transaction ${shortHex(hash, 10, 6)}`, query: new URLSearchParams({ endpoint: endpoint.id, hash: hash.toLowerCase() }).toString() });
}

function parseUri(uri: vscode.Uri): { endpointId: string; hash: string } | undefined {
  const query = new URLSearchParams(uri.query);
  const endpointId = query.get('endpoint');
  const hash = query.get('hash');
  return endpointId && hash && /^0x[0-9a-f]{64}$/.test(hash) ? { endpointId, hash } : undefined;
}

export class TransactionPages implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly pages = new Map<string, Page>();
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly registry: EndpointRegistry,
    private readonly abis: () => AbiBook | undefined,
    private readonly follow: PageFollow = { followed: () => false },
  ) {
    this.disposables = [
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === TRANSACTION_SCHEME) this.pages.delete(doc.uri.toString());
      }),
      // A page shown again is read once if the chain may have moved meanwhile.
      vscode.window.onDidChangeVisibleTextEditors(() => {
        for (const [key, page] of this.pages) if (page.stale && this.seen(key)) void this.check(key, page);
        this.schedule();
      }),
    ];
  }

  /** The chain moved on `endpointId` (the explorer's news): seen pages there are checked, others marked. */
  chainMoved(endpointId: string): void {
    for (const [key, page] of this.pages) {
      if (page.endpoint.id !== endpointId || page.done) continue;
      if (this.seen(key)) void this.check(key, page);
      else page.stale = true;
    }
  }

  /** Whether the explorer's following changed (view shown or hidden, endpoint expanded or not): checks run only where it does not follow. */
  followChanged(): void {
    this.schedule();
  }

  private seen(key: string): boolean {
    return vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === key);
  }

  /** Pages that read by themselves now: seen, not finalized, on an endpoint the explorer does not follow. */
  private polled(): [string, Page][] {
    return [...this.pages].filter(([key, page]) => !page.done && !this.follow.followed(page.endpoint.id, needsPending(page.stage)) && this.seen(key));
  }

  /**
   * One timer for every page that reads by itself, only while there is one: at the flashblock
   * cadence while a transaction can still enter the pending block, every second once included.
   */
  private schedule(): void {
    if (this.timer !== undefined) return;
    const polled = this.polled();
    if (polled.length === 0) return;
    const settings = readSettings();
    const fast = polled.some(([, page]) => needsPending(page.stage));
    const ms = fast ? Math.max(250, settings.flashblockMs) : Math.max(1000, settings.pollIntervalMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void Promise.all(this.polled().map(([key, page]) => this.check(key, page))).finally(() => this.schedule());
    }, ms);
  }

  /** Opens (or shows again) the page of `hash` on `endpoint`; resolves once it shows the first read. */
  async open(endpoint: Endpoint, hash: string): Promise<vscode.TextEditor> {
    const uri = transactionUri(endpoint, hash);
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  /** The text shown now for `uri` (tests read it). */
  textOf(uri: vscode.Uri): string | undefined {
    return this.pages.get(uri.toString())?.text;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const key = uri.toString();
    let page = this.pages.get(key);
    if (!page) {
      const parsed = parseUri(uri);
      const endpoint = parsed ? this.registry.get(parsed.endpointId) : undefined;
      if (!parsed || !endpoint) return 'This transaction page names an endpoint that is gone.\n';
      const reader = new EndpointReader(new RpcClient(endpoint.url, { timeoutMs: readSettings().requestTimeoutMs }));
      page = { endpoint, hash: parsed.hash, lookups: new ChainLookups(reader), text: '' };
      this.pages.set(key, page);
      await this.update(key, page, false);
      this.schedule();
    }
    return page.text;
  }

  /** Reads the page again if the heads its stage depends on moved since the last read (one small request). */
  private check(key: string, page: Page): Promise<void> {
    page.stale = false;
    return this.update(key, page, true, true);
  }

  /** Reads the page (`probeFirst`: only if its heads moved) and fires a change when its text did. */
  private update(key: string, page: Page, fire = true, probeFirst = false): Promise<void> {
    if (page.busy) return page.busy;
    const run = async (): Promise<void> => {
      if (probeFirst && page.probe !== undefined) {
        const items = await page.lookups.reader.batch(probeRequests(page.stage)).catch(() => undefined);
        if (items && probeKey(items.map((item) => (item.ok ? item.value as BlockJson | null : undefined))) === page.probe) return;
      }
      const text = await this.read(page);
      if (text !== page.text) {
        page.text = text;
        if (fire) this.emitter.fire(vscode.Uri.parse(key));
      }
    };
    page.busy = run().catch(() => undefined).finally(() => { page.busy = undefined; });
    return page.busy;
  }

  private async decodeContext(page: Page): Promise<DecodeContext> {
    if (!page.ctx) {
      let token: DecodeContext['token'];
      if (page.endpoint.tokenAddress) {
        const loaded = await page.lookups.reader.token(page.endpoint.tokenAddress, 'latest');
        token = loaded.ok ? { address: loaded.value.address, decimals: loaded.value.decimals ?? 6, symbol: loaded.value.symbol ?? '' } : undefined;
        if (!loaded.ok) return { token: undefined, abis: this.abis() }; // read again next time
      }
      page.ctx = { token };
    }
    return { ...page.ctx, abis: this.abis() };
  }

  private async read(page: Page): Promise<string> {
    const client = page.lookups.reader.client;
    const found = await page.lookups.transaction(page.hash);
    const heads = await page.lookups.reader.batch([
      { method: 'eth_getBlockByNumber', params: ['latest', false] },
      { method: 'eth_getBlockByNumber', params: ['safe', false] },
      { method: 'eth_getBlockByNumber', params: ['finalized', false] },
      { method: 'eth_getBlockByNumber', params: ['pending', false] },
    ]);
    const numberOf = (i: number): bigint | undefined => (heads[i].ok ? hexToBigInt((heads[i].value as BlockJson | null)?.number) : undefined);
    const tx = found?.tx ?? null;
    const block = hexToBigInt(tx?.blockNumber);
    const latest = numberOf(0);
    if (block !== undefined) page.lastBlock = block;
    // The flashblock that first showed it pre-confirmed, as far as this page saw.
    if (block !== undefined && latest !== undefined && block > latest && page.flashblock === undefined && heads[3].ok) {
      page.flashblock = flashblockIndexOf(heads[3].value as BlockJson | null);
    }
    const data: PageData = {
      endpointName: page.endpoint.name, hash: page.hash, tx, receipt: found?.receipt, latest, safe: numberOf(1), finalized: numberOf(2),
      flashblock: page.flashblock, droppedFrom: tx ? undefined : page.lastBlock, revertReason: found?.revertReason,
      ctx: await this.decodeContext(page),
    };
    if (tx && typeof tx.blockHash === 'string' && block !== undefined) {
      if (page.trace?.blockHash !== tx.blockHash) page.trace = { blockHash: tx.blockHash, value: await this.traceOf(client, page.hash) };
      data.trace = page.trace.value;
      const header = await client.call<BlockJson | null>('eth_getBlockByNumber', [tx.blockNumber, false]).catch(() => null);
      if (header && typeof header.timestamp === 'string') data.blockTimestamp = header.timestamp;
    }
    const stage = transactionStage(data).kind;
    page.done = stage === 'finalized';
    page.stage = stage;
    const headBlock = (i: number): BlockJson | null | undefined => (heads[i].ok ? heads[i].value as BlockJson | null : undefined);
    page.probe = probeKey(probeRequests(stage).length === 1 ? [headBlock(0)] : [headBlock(0), headBlock(3)]);
    return transactionPageText(data);
  }

  private async traceOf(client: RpcClient, hash: string): Promise<PageData['trace']> {
    try {
      return { ok: true, value: await client.call<TraceFrame>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]) };
    } catch (error) {
      if (error instanceof JsonRpcError && (error.code === -32601 || /not (found|supported|available)|does not exist/i.test(error.rpcMessage))) {
        return { ok: false, reason: 'this endpoint does not serve debug_traceTransaction' };
      }
      return { ok: false, reason: `debug_traceTransaction failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  provideDocumentLinks(doc: vscode.TextDocument): vscode.DocumentLink[] {
    const parsed = parseUri(doc.uri);
    if (!parsed) return [];
    const links: vscode.DocumentLink[] = [];
    const text = doc.getText();
    const commandUri = (id: string, args: unknown[]): vscode.Uri => vscode.Uri.parse(`command:${id}?${encodeURIComponent(JSON.stringify(args))}`);
    for (const match of text.matchAll(/0x[0-9a-fA-F]{64}\b|0x[0-9a-fA-F]{40}\b|(?<=Block:\s+)#\d+/g)) {
      const value = match[0].startsWith('#') ? match[0].slice(1) : match[0];
      if (value.toLowerCase() === parsed.hash) continue;
      const range = new vscode.Range(doc.positionAt(match.index), doc.positionAt(match.index + match[0].length));
      const link = new vscode.DocumentLink(range, commandUri(GO_TO_COMMAND, [parsed.endpointId, value]));
      link.tooltip = `Go to ${value} in the RPC Explorer`;
      links.push(link);
    }
    for (const match of text.matchAll(/authorizer (0x[0-9a-fA-F]{40}) nonce (0x[0-9a-fA-F]{64}) \(open in Authorizations\)/g)) {
      const start = match.index + match[0].indexOf('(open');
      const link = new vscode.DocumentLink(new vscode.Range(doc.positionAt(start), doc.positionAt(match.index + match[0].length)),
        commandUri(SHOW_AUTHORIZATION_COMMAND, [`${match[1].toLowerCase()}:${match[2].toLowerCase()}`]));
      link.tooltip = 'Show this authorization in the Authorizations view';
      links.push(link);
    }
    return links;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
    this.emitter.dispose();
  }
}
