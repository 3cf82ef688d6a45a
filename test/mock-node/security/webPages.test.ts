// What a web page in a browser on the same machine can do to the node: nothing. Malformed
// percent-encoding in a path never throws (it once killed the process), a text/plain POST (sent
// cross-origin without a preflight) is refused before it runs, a Host name that is not loopback
// (DNS rebinding) is refused, and a WebSocket upgrade or POST from a page's Origin is refused
// unless --allow-origin / --cors allow it.
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { RunningMockNode } from '../../../mock-node/index';
import { parseCommandLine } from '../../../mock-node/cli';
import { exposedBeyondLoopback, exposureWarning, hostAllowed, sameKey } from '../../../mock-node/rpc/requestGuards';
import { startCli, type CliNode } from '../../helpers/cli';
import { rawRequest, rawRpc, rawUpgrade } from '../../helpers/rawHttp';
import { rpc, startTestNode, startTestNodeVia, TRANSPORTS, type TestNode } from '../../helpers/rpc';

const CHAIN_ID = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };
const DEV = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

describe('web pages cannot crash or drive the node', function () {
  this.timeout(60_000);

  describe('malformed percent-encoding in a path (the CLI process)', () => {
    let cli: CliNode;
    before(async () => {
      cli = await startCli(['--no-auto', '--log-level', 'error']);
    });
    after(() => cli.stop());

    it('POST /dedicated/%E0%A4%A and /dedicated/%ZZ are HTTP 401; the process keeps serving', async () => {
      const base = new URL(cli.url);
      for (const path of ['/dedicated/%E0%A4%A', '/dedicated/%ZZ', '/dedicated/%', '/dedicated/%C0%80']) {
        const reply = await rawRpc(`${base.origin}${path}`, CHAIN_ID);
        assert.equal(reply.status, 401, path);
        assert.match(reply.body.error.message, /unauthorized/);
      }
      const get = await rawRequest(`${base.origin}/%E0%A4%A`, { method: 'GET' });
      assert.equal(get.status, 404);
      // The x402 facilitator's routes under a malformed dedicated key: a wrong key too.
      for (const [method, path] of [['POST', '/dedicated/%ZZ/x402/verify'], ['POST', '/dedicated/%E0%A4%A/x402/settle'], ['GET', '/dedicated/%ZZ/x402/supported']]) {
        const reply = await rawRequest(`${base.origin}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
        assert.deepEqual([reply.status, reply.body], [401, { error: 'unauthorized: unknown key for the dedicated endpoint' }], path);
      }
      assert.equal(await rpc(cli.url, 'eth_chainId'), '0x7a69');
      assert.equal(cli.child.exitCode, null);
    });

    it('a WebSocket upgrade to /dedicated/%ZZ is refused with 401; the process keeps serving', async () => {
      for (const path of ['/dedicated/%ZZ', '/dedicated/%E0%A4%A']) {
        const { status, socket } = await rawUpgrade(cli.url, path);
        socket.destroy();
        assert.equal(status, 401, path);
      }
      assert.equal(await rpc(cli.url, 'eth_chainId'), '0x7a69');
      assert.equal(cli.child.exitCode, null);
    });
  });

  for (const transport of TRANSPORTS) {
    describe(`requests a page can make (${transport})`, () => {
      let node: TestNode;
      before(async () => {
        node = await startTestNodeVia(transport);
      });
      after(() => node.stop());

      it('a malformed dedicated key is 401, the right one still works', async () => {
        const bad = node.dedicatedUrl.replace(/dedicated\/.*$/, 'dedicated/%E0%A4%A');
        assert.equal((await rawRpc(bad, CHAIN_ID)).status, 401);
        assert.equal((await rawRpc(node.dedicatedUrl, CHAIN_ID)).body.result, '0x7a69');
      });

      it('text/plain, form and missing content types are HTTP 415 and change nothing', async () => {
        const send = { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [{ from: DEV, to: DEV, value: '0x1' }] };
        const before = await rpc(node.url, 'eth_getTransactionCount', [DEV, 'pending']);
        for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
          const reply = await rawRpc(node.url, send, { 'content-type': type });
          assert.equal(reply.status, 415, type);
          assert.equal(reply.body.error.message, 'invalid content type, only application/json is supported');
        }
        const none = await rawRequest(node.url, { body: JSON.stringify(send) });
        assert.equal(none.status, 415);
        assert.equal(await rpc(node.url, 'eth_getTransactionCount', [DEV, 'pending']), before);
        for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json-rpc']) {
          assert.equal((await rawRpc(node.url, CHAIN_ID, { 'content-type': type })).body.result, '0x7a69', type);
        }
      });

      it('a Host name that is not loopback (DNS rebinding) is HTTP 403; loopback names and IP literals are served', async () => {
        const port = new URL(node.url).port;
        for (const host of [`attacker.example:${port}`, 'attacker.example', `localhost.attacker.example:${port}`, 'a b', '[::1']) {
          const reply = await rawRpc(node.url, CHAIN_ID, { host });
          assert.equal(reply.status, 403, host);
          assert.match(reply.body.error.message, /invalid host specified/);
        }
        const health = await rawRequest(node.url.replace(/\/rpc\/$/, '/').replace(/\/$/, '/health'), { method: 'GET', headers: { host: 'attacker.example' } });
        if (transport === 'http') assert.equal(health.status, 403, 'every path, not only JSON-RPC');
        for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`, `LOCALHOST.:${port}`, '10.1.2.3']) {
          assert.equal((await rawRpc(node.url, CHAIN_ID, { host })).body?.result, '0x7a69', host);
        }
      });

      it("a POST from a page's Origin is HTTP 403; tools send none and are served", async () => {
        for (const origin of ['https://attacker.example', 'http://localhost.attacker.example:5173', 'http://127.0.0.2:5173', 'http://[::2]:80', 'null', 'file://']) {
          const reply = await rawRpc(node.url, CHAIN_ID, { origin });
          assert.equal(reply.status, 403, origin);
          assert.match(reply.body.error.message, /origin ".*" is not allowed/);
          assert.equal(reply.headers['access-control-allow-origin'], undefined);
        }
      });

      it("a loopback page (Vite's rule: localhost, *.localhost, 127.0.0.1, [::1], any port) is served with CORS headers by default", async () => {
        for (const origin of ['http://localhost:5173', 'https://localhost', 'http://app.localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:5173']) {
          const reply = await rawRpc(node.url, CHAIN_ID, { origin });
          assert.equal(reply.body?.result, '0x7a69', origin);
          assert.equal(reply.headers['access-control-allow-origin'], origin);
          assert.equal(reply.headers.vary, 'Origin');
        }
        const preflight = await rawRequest(node.url, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
        assert.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:5173');
      });
    });
  }

  describe('--allow-origin, --cors and --allow-host open exactly what they name', () => {
    let node: RunningMockNode;
    before(async () => {
      node = await startTestNode({ allowOrigins: ['https://app.example'], allowHosts: ['devbox.lan'] });
    });
    after(() => node.stop());

    it('an allowed origin is served with CORS headers naming it; its preflight answers 204', async () => {
      const reply = await rawRpc(node.url, CHAIN_ID, { origin: 'https://app.example' });
      assert.equal(reply.body.result, '0x7a69');
      assert.equal(reply.headers['access-control-allow-origin'], 'https://app.example');
      assert.equal(reply.headers.vary, 'Origin');
      const preflight = await rawRequest(node.url, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example');
      const other = await rawRequest(node.url, { method: 'OPTIONS', headers: { origin: 'https://attacker.example' } });
      assert.equal(other.headers['access-control-allow-origin'], undefined);
      assert.equal((await rawRpc(node.url, CHAIN_ID, { origin: 'https://attacker.example' })).status, 403);
    });

    it('an allowed host name is served', async () => {
      assert.equal((await rawRpc(node.url, CHAIN_ID, { host: `devbox.lan:${node.port}` })).body.result, '0x7a69');
      assert.equal((await rawRpc(node.url, CHAIN_ID, { host: `other.lan:${node.port}` })).status, 403);
    });

    it('WebSocket upgrades: no Origin (tools) and the allowed origin are accepted, any other origin and host are 403', async () => {
      for (const [headers, expected] of [
        [{}, 101],
        [{ Origin: 'https://app.example' }, 101],
        [{ Origin: 'http://localhost:5173' }, 101],
        [{ Origin: 'http://127.0.0.1:3000' }, 101],
        [{ Origin: 'http://[::1]:5173' }, 101],
        [{ Origin: 'https://attacker.example' }, 403],
        [{ Origin: 'http://localhost.attacker.example' }, 403],
        [{ Origin: 'http://localhost:5173', Host: 'attacker.example' }, 403],
        [{ Origin: 'null' }, 403],
        [{ Host: 'attacker.example' }, 403],
      ] as [Record<string, string>, number][]) {
        const { status, socket } = await rawUpgrade(node.wsUrl, '/', headers);
        socket.destroy();
        assert.equal(status, expected, JSON.stringify(headers));
      }
    });

    it('with --cors any origin may call, over HTTP and WebSocket', async () => {
      const open = await startTestNode({ cors: true });
      try {
        const reply = await rawRpc(open.url, CHAIN_ID, { origin: 'https://anywhere.example' });
        assert.equal(reply.body.result, '0x7a69');
        assert.equal(reply.headers['access-control-allow-origin'], '*');
        const ws = new WebSocket(open.wsUrl, { origin: 'https://anywhere.example' });
        await new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('error', reject);
        });
        ws.close();
      } finally {
        await open.stop();
      }
    });

    it('the flags: --allow-origin and --allow-host repeat or take commas; a malformed origin is refused', () => {
      const { options } = parseCommandLine(['--allow-origin', 'https://a.example,http://localhost:3000', '--allow-origin', 'https://b.example', '--allow-host', 'devbox.lan']);
      assert.deepEqual(options.allowOrigins, ['https://a.example', 'http://localhost:3000', 'https://b.example']);
      assert.deepEqual(options.allowHosts, ['devbox.lan']);
      return assert.rejects(startTestNode({ allowOrigins: ['attacker.example/path'] }), /allowOrigins: "attacker.example\/path" is not an origin/);
    });
  });

  describe('the rules themselves', () => {
    it('Host: loopback names, IP literals and the bound host; names only when allowed', () => {
      const policy = { bindHost: '127.0.0.1', allowHosts: [], allowOrigins: [] };
      for (const host of ['localhost', 'localhost:8545', 'x.localhost', '127.0.0.1:1', '[::1]:8545', '192.168.1.9']) assert.ok(hostAllowed(host, policy), host);
      for (const host of ['evil.example', 'localhost.evil.example', '', ':80', '[::1', 'a:b:c']) assert.ok(!hostAllowed(host, policy), host);
      assert.ok(hostAllowed('devbox', { ...policy, bindHost: 'devbox' }));
      assert.ok(!hostAllowed('devbox', { ...policy, bindHost: '0.0.0.0' }));
      assert.ok(hostAllowed('anything.example', { ...policy, allowHosts: ['*'] }));
    });

    it('a bind address beyond loopback is reported (the node then warns at start)', () => {
      for (const host of ['0.0.0.0', '::', '192.168.1.9', 'devbox']) assert.ok(exposedBeyondLoopback(host), host);
      for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) assert.ok(!exposedBeyondLoopback(host), host);
      assert.match(exposureWarning('0.0.0.0')!, /^listening on 0\.0\.0\.0, beyond loopback: the dev accounts' keys are public/);
      assert.equal(exposureWarning('127.0.0.1'), undefined);
    });

    it('the dedicated key comparison: equal keys match, any difference does not', () => {
      assert.ok(sameKey('abc123', 'abc123'));
      for (const other of ['abc124', 'abc12', 'abc1234', '', 'ABC123']) assert.ok(!sameKey(other, 'abc123'), other);
    });
  });
});
