// Shared helpers for the language analysis tests: problems as [code, severity, the exact text
// they cover], and a cursor marker `|` for completion and hover positions.
import { parseRpcDocument, type Problem } from '../../../extension/language/server/document';
import { analyzeRpcDocument, type ProfileContext } from '../../../extension/language/server/rpcDiagnostics';

export interface Seen {
  code: string;
  severity: Problem['severity'];
  text: string;
  message: string;
}

export function seen(text: string, problems: Problem[]): Seen[] {
  return problems.map((p) => ({ code: p.code, severity: p.severity, text: text.substr(p.offset, p.length), message: p.message }));
}

export function rpcProblems(text: string, context?: ProfileContext): Seen[] {
  return seen(text, analyzeRpcDocument(parseRpcDocument(text), context));
}

/** Removes the first `|` and answers the text and the cursor offset. */
export function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  if (offset < 0) throw new Error('no | cursor in the text');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

export function request(method: string, params: unknown[] | string, id = 1): string {
  return `{ "jsonrpc": "2.0", "id": ${id}, "method": "${method}", "params": ${typeof params === 'string' ? params : JSON.stringify(params)} }`;
}
