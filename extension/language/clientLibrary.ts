// vscode-languageclient (about 1 MB of code) as its own bundle, dist/languageClient.js, which
// extension/language/client.ts requires when the first language document opens: bundled into
// dist/extension.js it would add ~15 ms to every activation. Built by esbuild.mjs.
// The custom messages (server/messages.ts) come with it as this library's typed NotificationTypes.
import { NotificationType } from 'vscode-languageclient/node';
import { CHAIN_CLOCKS, DOCUMENT_ENDPOINTS, ENDPOINTS, type NotificationSpec } from './server/messages';

export { LanguageClient, TransportKind } from 'vscode-languageclient/node';

const typed = <P>(spec: NotificationSpec<P>) => new NotificationType<P>(spec.method);

export const messages = {
  endpoints: typed(ENDPOINTS),
  documentEndpoints: typed(DOCUMENT_ENDPOINTS),
  chainClocks: typed(CHAIN_CLOCKS),
};
