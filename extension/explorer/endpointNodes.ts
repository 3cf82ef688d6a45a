// The endpoint node and its state sections (accounts, storage slots, token). No vscode import.
import { activityNode } from './activityNodes';
import { blockNode } from './blockNodes';
import { followModeText, followTooltip } from './followMode';
import { foundGroup, goToRow } from './foundNodes';
import { recentNode } from './recentNodes';
import { hexAsDecimal, hexToBigInt, shortHex, tokenUnits, weiAsEth } from './format';
import type { EndpointView, NodeSpec, SectionKey, TagView } from './nodeSpec';
import type { DecodeContext } from './decoding';

function lazySection(ep: EndpointView, key: SectionKey, label: string, icon: string): NodeSpec {
  return { id: `${ep.id}/${key}`, endpointId: ep.id, kind: key === 'accounts' ? 'accounts' : key === 'storage' ? 'storage' : 'token', collapsible: 'collapsed', icon, label, section: key };
}

function errorChild(id: string, endpointId: string, error: string): NodeSpec {
  return { id: `${id}/error`, endpointId, kind: 'error', collapsible: 'none', icon: 'warning', label: error, tooltip: error, copyValue: error };
}

function messageChild(id: string, endpointId: string, label: string, description?: string): NodeSpec {
  return { id: `${id}/message`, endpointId, kind: 'message', collapsible: 'none', label, description };
}

function tokenFormat(ep: EndpointView): { decimals: number; symbol: string } | undefined {
  if (!ep.token?.ok) return undefined;
  return { decimals: ep.token.value.decimals ?? 6, symbol: ep.token.value.symbol ?? '' };
}

/** How this endpoint's transactions and logs are decoded: its token, and the user's ABIs. */
export function decodeContext(ep: EndpointView): DecodeContext {
  const token = ep.token?.ok ? { address: ep.token.value.address, decimals: ep.token.value.decimals ?? 6, symbol: ep.token.value.symbol ?? '' } : undefined;
  return { token, abis: ep.abis };
}

export function accountsNode(ep: EndpointView): NodeSpec {
  const node = lazySection(ep, 'accounts', 'Accounts', 'account');
  const loaded = ep.accounts;
  if (!ep.open.has('accounts') || !loaded) return node;
  if (!loaded.ok) return { ...node, children: [errorChild(node.id, ep.id, loaded.error)] };
  if (loaded.value.length === 0) return { ...node, children: [messageChild(node.id, ep.id, 'no watched account', 'chainExplorer.watchedAccounts')] };
  const token = tokenFormat(ep) ?? { decimals: 6, symbol: '' };
  return {
    ...node,
    description: `${loaded.value.length}`,
    children: loaded.value.map((a) => {
      const id = `${node.id}/${a.address.toLowerCase()}`;
      const latest = hexAsDecimal(a.nonceLatest);
      const pending = hexAsDecimal(a.noncePending);
      const tokenBalance = a.tokenBalance !== undefined ? hexToBigInt(a.tokenBalance) : undefined;
      const tokenText = tokenBalance !== undefined ? tokenUnits(tokenBalance, token.decimals, token.symbol) : undefined;
      return {
        id, endpointId: ep.id, kind: 'account' as const, collapsible: 'collapsed' as const, icon: 'person',
        label: shortHex(a.address, 8, 6),
        description: `nonce ${latest} / pending ${pending} · ${weiAsEth(a.balance)}${tokenText ? ` · ${tokenText}` : ''}`,
        tooltip: a.address, copyValue: a.address,
        request: { method: 'eth_getTransactionCount', params: [a.address, 'pending'] },
        children: [
          { id: `${id}/nonce`, endpointId: ep.id, kind: 'field' as const, collapsible: 'none' as const, label: 'nonce', description: `latest ${latest} · pending ${pending}`, copyValue: pending },
          { id: `${id}/balance`, endpointId: ep.id, kind: 'field' as const, collapsible: 'none' as const, label: 'ETH', description: weiAsEth(a.balance), copyValue: hexAsDecimal(a.balance) },
          ...(tokenText ? [{ id: `${id}/token`, endpointId: ep.id, kind: 'field' as const, collapsible: 'none' as const, label: token.symbol || 'token', description: tokenText, copyValue: String(tokenBalance) }] : []),
        ],
      };
    }),
  };
}

export function storageNode(ep: EndpointView): NodeSpec {
  const node = lazySection(ep, 'storage', 'Storage', 'database');
  const loaded = ep.storage;
  if (!ep.open.has('storage') || !loaded) return node;
  if (!loaded.ok) return { ...node, children: [errorChild(node.id, ep.id, loaded.error)] };
  if (loaded.value.length === 0) return { ...node, children: [messageChild(node.id, ep.id, 'no storage slot configured', 'chainExplorer.storageSlots')] };
  return {
    ...node,
    description: `${loaded.value.length}`,
    children: loaded.value.map((s) => ({
      id: `${node.id}/${s.address.toLowerCase()}/${s.slot}`, endpointId: ep.id, kind: 'slot' as const, collapsible: 'none' as const, icon: 'symbol-variable',
      label: s.label ?? `${shortHex(s.address)} [${s.slot}]`,
      description: `${hexAsDecimal(s.value)}`,
      tooltip: `${s.address} slot ${s.slot}\n${s.value}`, copyValue: s.value,
      request: { method: 'eth_getStorageAt', params: [s.address, s.slot, 'latest'] },
    })),
  };
}

export function tokenNode(ep: EndpointView): NodeSpec {
  const node = lazySection(ep, 'token', 'Token', 'symbol-constant');
  const loaded = ep.token;
  if (!ep.open.has('token') || !loaded) return node;
  if (!loaded.ok) return { ...node, children: [errorChild(node.id, ep.id, loaded.error)] };
  const t = loaded.value;
  const decimals = t.decimals ?? 6;
  const supply = t.totalSupply !== undefined ? hexToBigInt(t.totalSupply) : undefined;
  const field = (name: string, value: string | undefined): NodeSpec => ({
    id: `${node.id}/${name}`, endpointId: ep.id, kind: 'field', collapsible: 'none', label: name, description: value ?? '(not readable)', copyValue: value,
  });
  return {
    ...node,
    description: `${t.symbol ?? ''} ${shortHex(t.address)}`.trim(),
    copyValue: t.address,
    children: [
      field('address', t.address),
      field('name', t.name),
      field('symbol', t.symbol),
      field('version', t.version),
      field('decimals', t.decimals?.toString()),
      field('totalSupply', supply !== undefined ? tokenUnits(supply, decimals, t.symbol ?? '') : undefined),
      field('paused', t.paused === undefined ? undefined : String(t.paused)),
    ],
  };
}

export interface EndpointNodeOptions {
  showSafeFinalized: boolean;
  hasToken: boolean;
  /** Blocks the Activity filters follow (named in the tree). */
  activityBlocks?: number;
}

/** What is shown for answers that made the explorer throw (short, printable). */
export function unshowableText(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `the endpoint answered something this view cannot show: ${reason.replace(/[^\x20-\x7e]/g, ' ').slice(0, 200)}`;
}

/**
 * The endpoint's row when its data could not be turned into nodes (an endpoint answering values
 * of the wrong type): one clear error under it, and every other endpoint still shown.
 */
export function unshowableEndpointNode(ep: Pick<EndpointView, 'id' | 'name' | 'displayUrl'>, error: unknown): NodeSpec {
  const text = unshowableText(error);
  return {
    id: ep.id, endpointId: ep.id, kind: 'endpoint', collapsible: 'expanded', icon: 'debug-disconnect', label: ep.name,
    description: `${ep.displayUrl} · cannot show its answers`, tooltip: `${ep.name}\n${ep.displayUrl}\n${text}`,
    request: { method: 'eth_chainId', params: [] },
    children: [errorChild(ep.id, ep.id, text)],
  };
}

export function endpointNode(ep: EndpointView, tagView: TagView, options: EndpointNodeOptions): NodeSpec {
  const id = ep.id;
  const base: NodeSpec = {
    id, endpointId: ep.id, kind: 'endpoint', collapsible: 'collapsed', icon: 'server-environment', label: ep.name,
    description: ep.displayUrl, tooltip: `${ep.name}\n${ep.displayUrl}`,
    request: { method: 'eth_chainId', params: [] },
  };
  const overview = ep.overview;
  if (!overview) return base;
  if (!overview.ok) return { ...base, icon: 'debug-disconnect', description: `${ep.displayUrl} · ${overview.error}`, children: [errorChild(id, ep.id, overview.error)] };
  const o = overview.value;
  const token = tokenFormat(ep);
  const ctx = decodeContext(ep);
  const found = foundGroup(ep, ctx);
  const children: NodeSpec[] = [
    goToRow(ep.id), ...(found ? [found] : []), blockNode(ep, tagView, ctx), recentNode(ep, ctx),
    activityNode(ep, ctx, options.activityBlocks ?? 100),
  ];
  if (options.showSafeFinalized) {
    for (const tag of ['safe', 'finalized'] as const) {
      const value = o[tag];
      if (value !== undefined) {
        children.push({
          id: `${id}/${tag}`, endpointId: ep.id, kind: 'tagHead', collapsible: 'none', icon: tag === 'safe' ? 'shield' : 'lock',
          label: `${tag} #${value === null ? '?' : hexAsDecimal(value)}`, copyValue: value ?? undefined,
          request: { method: 'eth_getBlockByNumber', params: [tag, false] },
        });
      }
    }
  }
  children.push(accountsNode(ep), storageNode(ep));
  if (options.hasToken) children.push(tokenNode(ep));
  return {
    ...base,
    // No head here: a row that changes every block would refresh the whole endpoint subtree in
    // VS Code every block (the block rows below show the head).
    // Short enough for a sidebar of ordinary width; the client version is in the tooltip.
    description: `chain ${hexAsDecimal(o.chainId)}${ep.follow ? ` · ${followModeText(ep.follow)}` : ''}`,
    tooltip: `${ep.name}\n${ep.displayUrl}\nchain id ${hexAsDecimal(o.chainId)}\n${o.clientVersion}${ep.follow ? `\nfollowed: ${followTooltip(ep.follow)}` : ''}`,
    children,
  };
}
