// A fork of an upstream served over https, as every provider is: the CLI (a child process that
// trusts the test certificate through NODE_EXTRA_CA_CERTS) forks through a TLS proxy that answers
// with chunked bodies written in pieces, sends the --fork-header with every request, and never
// prints the URL's key or the header's value.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { anvilOrSkip, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { ROOT, startCli, type CliNode } from '../../helpers/cli';
import { rpc } from '../../helpers/rpc';

const TLS = join(ROOT, 'test', 'fixtures', 'tls');
const PATH_KEY = 'pathk3y9e1b7c2d';
const HEADER_KEY = 'hdrk3y4a8f0e6b1';
const RICH = '0x0000000000000000000000000000000000fa7ca7';

interface TlsProxy {
  url: string;
  requests: number;
  headers: Record<string, string | string[] | undefined>;
  close(): Promise<void>;
}

/** An https server in front of `upstream`: each answer goes chunked, in two pieces. */
async function startTlsProxy(upstream: string): Promise<TlsProxy> {
  const proxy: TlsProxy = { url: '', requests: 0, headers: {}, close: async () => undefined };
  const server: Server = createServer({ key: readFileSync(join(TLS, 'localhost.key')), cert: readFileSync(join(TLS, 'localhost.crt')) }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      if (request.url !== `/v2/${PATH_KEY}`) {
        response.writeHead(404).end();
        return;
      }
      proxy.requests++;
      proxy.headers = request.headers;
      const answer = await (await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })).text();
      response.writeHead(200, { 'content-type': 'application/json' });
      const half = Math.floor(answer.length / 2);
      response.write(answer.slice(0, half));
      setImmediate(() => response.end(answer.slice(half)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `https://localhost:${(server.address() as AddressInfo).port}/v2/${PATH_KEY}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}

describe('fork: an upstream over https', function () {
  this.timeout(60_000);
  let upstream: RunningAnvil;
  let proxy: TlsProxy;
  let node: CliNode | undefined;

  before(async function () {
    const binary = anvilOrSkip(this);
    upstream = await startAnvil(binary, ['--chain-id', '31337']);
    await rpc(upstream.url, 'anvil_setBalance', [RICH, '0x1234567890']);
    await rpc(upstream.url, 'anvil_mine', ['0x3']);
    proxy = await startTlsProxy(upstream.url);
  });

  after(async () => {
    await node?.stop();
    await proxy?.close();
    await upstream?.stop();
  });

  it('forks through TLS with the header sent and the keys never printed', async () => {
    node = await startCli(['--no-auto', '--fork-url', proxy.url, '--fork-header', `X-Api-Key: ${HEADER_KEY}`], undefined, { ...process.env, NODE_EXTRA_CA_CERTS: join(TLS, 'localhost.crt') });
    assert.equal(BigInt(await rpc(node.url, 'eth_chainId')), 31337n);
    assert.equal(await rpc(node.url, 'eth_getBalance', [RICH, 'latest']), '0x1234567890');
    assert.ok(proxy.requests >= 2, 'the start and the read went through the TLS proxy');
    assert.equal(proxy.headers['x-api-key'], HEADER_KEY);
    // A second read of the same account asks nothing more.
    const requests = proxy.requests;
    assert.equal(await rpc(node.url, 'eth_getBalance', [RICH, 'latest']), '0x1234567890');
    assert.equal(proxy.requests, requests);
    const printed = node.output();
    assert.match(printed, /https:\/\/localhost:\d+\/<redacted>/);
    assert.ok(!printed.includes(PATH_KEY) && !printed.includes(HEADER_KEY), 'neither key is printed');
  });
});
