// "Copy as curl": a shell-safe curl command for one JSON-RPC request. No vscode import.

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function requestAsCurl(url: string, method: string, params: unknown[], id: number | string = 1): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  return `curl -sS -X POST -H 'content-type: application/json' --data ${shellQuote(body)} ${shellQuote(url)}`;
}
