// The JSON-RPC client and the explorer model against endpoints that misbehave: each failure is
// one short, clear error; a 100 MB answer is cut off after the limit (the server sends little
// more than that); odd result types never make the tree throw.
import * as assert from 'node:assert/strict';
import { ExplorerModel, type ExplorerEndpoint } from '../../extension/explorer/explorerModel';
import { RpcClient } from '../../extension/rpc/client';
import { BadResponseError, HttpStatusError, TimeoutError } from '../../extension/rpc/errors';
import { startHostileServer, type HostileServer } from '../helpers/hostileServer';

describe('against a hostile endpoint', function () {
  this.timeout(30_000);
  let hostile: HostileServer;
  before(async () => {
    hostile = await startHostileServer();
  });
  after(() => hostile.close());

  it('a hanging endpoint times out', async () => {
    await assert.rejects(new RpcClient(hostile.url('hang'), { timeoutMs: 300 }).call('eth_chainId'), (e: unknown) => e instanceof TimeoutError && e.message === 'eth_chainId: no answer within 300 ms');
  });

  it('an HTML page, an error page and cut-off JSON are named as such', async () => {
    await assert.rejects(new RpcClient(hostile.url('html')).call('eth_chainId'), (e: unknown) => e instanceof BadResponseError && e.message === 'eth_chainId: bad response: an HTML page, not JSON-RPC (is the URL an RPC endpoint?)');
    await assert.rejects(new RpcClient(hostile.url('status500')).call('eth_chainId'), (e: unknown) => e instanceof HttpStatusError && e.status === 500 && e.message === 'eth_chainId: HTTP 500');
    await assert.rejects(new RpcClient(hostile.url('malformed')).call('eth_chainId'), (e: unknown) => e instanceof BadResponseError && /^eth_chainId: bad response: not JSON \(\{"jsonrpc":"2\.0","id":1,"result":\{"number":"0x1",\)$/.test(e.message));
  });

  it('a 100 MB answer is cut off at the limit: little more than the limit is ever sent', async () => {
    const limit = 1024 * 1024;
    const before = hostile.hugeBytesSent;
    await assert.rejects(new RpcClient(hostile.url('huge'), { maxResponseBytes: limit }).call('eth_getBlockByNumber', ['latest', true]), (e: unknown) => e instanceof BadResponseError && e.message.endsWith(`the answer is larger than ${limit} bytes; not read`));
    // Socket buffers on both sides hold a few MB at most; the 100 MB never leave the server.
    const sent = hostile.hugeBytesSent - before;
    assert.ok(sent < 20 * limit, `${sent} bytes sent`);
  });

  it('results of the wrong types: the model renders every endpoint, the odd one with one error', async () => {
    const endpoints: ExplorerEndpoint[] = (['wrongtypes', 'html'] as const).map((path) => ({ id: `ep:${path}`, name: path, url: hostile.url(path), displayUrl: hostile.url(path) }));
    const model = new ExplorerModel(() => endpoints, () => ({ requestTimeoutMs: 2000, showSafeFinalized: true, recentBlocks: 10, addressHistoryBlocks: 2000, activityBlocks: 100, watchedAccounts: [], storageSlots: [], logFilters: [] }));
    for (const endpoint of endpoints) await model.expandEndpoint(endpoint.id);
    const roots = model.roots();
    assert.deepEqual(roots.map((r) => r.label), ['wrongtypes', 'html']);
    for (const root of roots) {
      assert.equal(root.children?.length, 1, root.label);
      assert.equal(root.children![0].kind, 'error', root.label);
      assert.ok(root.children![0].label.length <= 320, 'short');
    }
    assert.match(roots[1].children![0].label, /an HTML page, not JSON-RPC/);
  });
});
