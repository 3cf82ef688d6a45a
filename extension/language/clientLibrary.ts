// vscode-languageclient (about 1 MB of code) as its own bundle, dist/languageClient.js, which
// extension/language/client.ts requires when the first language document opens: bundled into
// dist/extension.js it would add ~15 ms to every activation. Built by esbuild.mjs.
export { LanguageClient, TransportKind } from 'vscode-languageclient/node';
