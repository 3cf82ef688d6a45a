// mockNodeRouter() inside a user's Express app: WebSocket on the mounted paths next to the app's
// own WebSocket endpoint, and the state file written on stop and loaded by the next router.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import WebSocket, { WebSocketServer } from 'ws';
import { mockNodeRouter, type MockNodeRouter } from '../../../mock-node/index';
import { rpc } from '../../helpers/rpc';
import { TestSocket } from '../websocket/wsClient';

async function serve(app: express.Express): Promise<{ server: Server; port: number }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, port: (server.address() as AddressInfo).port };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The status an upgrade request gets, or 'open' when it is accepted. */
function upgradeStatus(url: string): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => {
      ws.terminate();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

describe('mockNodeRouter in an Express app: WebSocket and state file', () => {
  describe('WebSocket under the mount path', () => {
    let mounted: MockNodeRouter;
    let server: Server;
    let base: string;
    let appSockets: WebSocketServer;
    before(async () => {
      mounted = await mockNodeRouter({ auto: false });
      const app = express();
      app.use('/rpc', mounted.router);
      ({ server } = await serve(app));
      const port = (server.address() as AddressInfo).port;
      base = `127.0.0.1:${port}/rpc`;
      mounted.attachWebSocket(server, '/rpc/');
      // The app's own WebSocket endpoint on the same server must keep working.
      appSockets = new WebSocketServer({ noServer: true });
      server.on('upgrade', (req, socket, head) => {
        if (req.url === '/app-events') appSockets.handleUpgrade(req, socket, head, (ws) => ws.send('hello from the app'));
      });
    });
    after(async () => {
      await mounted.stop();
      appSockets.close();
      await close(server);
    });

    it('subscribes to newHeads and answers JSON-RPC over ws://…/rpc/ and the dedicated path', async () => {
      const live = await TestSocket.open(`ws://${base}/`);
      const dedicated = await TestSocket.open(`ws://${base}/dedicated/${mounted.core.http.apiKey}`);
      try {
        const heads = await live.subscribe('newHeads');
        await rpc(`http://${base}/`, 'evm_mine');
        await live.until(() => live.of(heads).length === 1, 5000, 'a newHeads notification');
        assert.equal(live.of(heads)[0].number, '0x1');
        assert.equal(await live.call('eth_chainId'), '0x7a69');
        assert.deepEqual(await dedicated.call('eth_getBlockReceipts', ['latest']), []);
        await assert.rejects(live.call('eth_getBlockReceipts', ['latest']), (error: any) => error.code === -32004);
      } finally {
        live.close();
        dedicated.close();
      }
    });

    it('refuses a wrong key (401) and an unknown path under the mount (404), and leaves the app\'s own paths alone', async () => {
      assert.equal(await upgradeStatus(`ws://${base}/dedicated/wrong`), 401);
      assert.equal(await upgradeStatus(`ws://${base}/elsewhere`), 404);
      const appSocket = new WebSocket(`ws://${base.replace('/rpc', '')}/app-events`);
      const first = await new Promise<string>((resolve, reject) => {
        appSocket.once('message', (data) => resolve(data.toString()));
        appSocket.once('error', reject);
      });
      appSocket.terminate();
      assert.equal(first, 'hello from the app');
    });

    it('refuses a mount path without a leading slash, and a second attach to the same server', () => {
      assert.throws(() => mounted.attachWebSocket(server, 'rpc'), /mountPath must start with \//);
      assert.throws(() => mounted.attachWebSocket(server, '/rpc'), /already has the node's WebSocket side/);
    });
  });

  it('writes the state file on stop; the next router loads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'router-state-'));
    const stateFile = join(dir, 'chain.json');
    try {
      const first = await mockNodeRouter({ auto: false, stateFile });
      const app = express();
      app.use('/', first.router);
      const { server, port } = await serve(app);
      const url = `http://127.0.0.1:${port}/`;
      const from = first.core.services.accounts.list[0].address;
      const hash = await rpc(url, 'eth_sendTransaction', [{ from, to: first.core.services.accounts.list[1].address, value: '0x5' }]);
      await rpc(url, 'evm_mine', ['0x3']);
      const head = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
      await first.stop();
      await close(server);
      assert.ok(existsSync(stateFile));

      const second = await mockNodeRouter({ auto: false, stateFile });
      const again = express();
      again.use('/', second.router);
      const reopened = await serve(again);
      const url2 = `http://127.0.0.1:${reopened.port}/`;
      try {
        const head2 = await rpc(url2, 'eth_getBlockByNumber', ['latest', false]);
        assert.equal(head2.hash, head.hash);
        assert.equal((await rpc(url2, 'eth_getTransactionReceipt', [hash])).status, '0x1');
        assert.equal(await rpc(url2, 'eth_getTransactionCount', [from, 'latest']), '0x1');
      } finally {
        await second.stop();
        await close(reopened.server);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
