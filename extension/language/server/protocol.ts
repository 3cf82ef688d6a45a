// Names shared by the client (extension/language/client.ts) and the server: language ids and the
// Send command. Pure constants: importing this runs nothing. The custom messages are typed
// constants in messages.ts.
export const RPC_LANGUAGE_ID = 'jsonrpc';
export const AUTHORIZATION_LANGUAGE_ID = 'chain-authorization';
export { SEND_COMMAND } from './lenses';
export type { KnownEndpoint, Profile } from './rpcDiagnostics';
