// The custom messages between the language client (extension/language/client.ts) and the server,
// declared once: each names its method and fixes the type of its params. Each side turns them into
// its own library's typed NotificationType, `new NotificationType<P>(spec.method)` (the client through
// vscode-languageclient, the server through vscode-languageserver: they ship different
// vscode-jsonrpc versions, whose classes TypeScript will not mix), so both send and handle the
// same shape under the same name. Importing this module loads nothing.
import type { ChainClock } from './authorizationDiagnostics';
import type { KnownEndpoint } from './rpcDiagnostics';

/** A notification: its method, and (in the type only) its params. */
export interface NotificationSpec<P> {
  readonly method: string;
  /** Never set: carries P for the typed constructors. */
  readonly params?: P;
}

function notification<P>(method: string): NotificationSpec<P> {
  return { method };
}

/** Client → server: the endpoints the extension knows (ids, names and profiles, never URLs). */
export const ENDPOINTS = notification<KnownEndpoint[]>('chainExplorer/endpoints');

/** Client → server: the endpoint Send uses for each document ({ [uri]: endpointId }). */
export const DOCUMENT_ENDPOINTS = notification<Record<string, string>>('chainExplorer/documentEndpoints');

/** Client → server: each chain's block time as the extension last read it, by which `.authorization.json` windows are judged. */
export const CHAIN_CLOCKS = notification<ChainClock[]>('chainExplorer/chainClocks');
