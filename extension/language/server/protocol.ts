// Names shared by the client (extension/language/client.ts) and the server: language ids, the
// custom notifications, the Send command. Pure constants: importing this runs nothing.
export const RPC_LANGUAGE_ID = 'jsonrpc';
export const AUTHORIZATION_LANGUAGE_ID = 'chain-authorization';
/** Client → server: the endpoints the extension knows (ids, names and profiles, never URLs). */
export const ENDPOINTS_NOTIFICATION = 'chainExplorer/endpoints';
/** Client → server: the endpoint Send uses for each document ({ [uri]: endpointId }). */
export const DOCUMENT_ENDPOINTS_NOTIFICATION = 'chainExplorer/documentEndpoints';
export { SEND_COMMAND } from './lenses';
export type { KnownEndpoint, Profile } from './rpcDiagnostics';
