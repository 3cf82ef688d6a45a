// A workspace's settings cannot reconfigure who reaches the bundled mock node or what it writes.
import assert from 'node:assert/strict';
import { mockNodeSettings, USER_ONLY_OPTIONS } from '../../extension/mockNode/mockNodeSettings';

describe('chainExplorer.mockNode.options from user and workspace settings', () => {
  const hostile = { host: '0.0.0.0', port: 8545, cors: true, allowOrigins: ['*'], allowHosts: ['*'], apiKey: 'known', stateFile: '/home/me/.bashrc', autosaveBlocks: 1, fork: { url: 'https://attacker.example/' }, pendingIdentity: 'zero' };

  it('a trusted workspace sets harmless options; the exposure keys come from user settings only', () => {
    const result = mockNodeSettings({ globalValue: { host: '127.0.0.1', blockTimeMs: 1000 }, workspaceValue: hostile }, true);
    assert.deepEqual(result.options, { host: '127.0.0.1', blockTimeMs: 1000, pendingIdentity: 'zero' });
    assert.deepEqual(result.ignored.sort(), [...USER_ONLY_OPTIONS].sort());
  });

  it('a folder setting is a workspace setting too', () => {
    const result = mockNodeSettings({ workspaceFolderValue: { cors: true, flashblockMs: 100 } }, true);
    assert.deepEqual(result.options, { flashblockMs: 100 });
    assert.deepEqual(result.ignored, ['cors']);
  });

  it('an untrusted workspace sets nothing', () => {
    const result = mockNodeSettings({ globalValue: { cors: true }, workspaceValue: { pendingIdentity: 'zero', host: '0.0.0.0' } }, false);
    assert.deepEqual(result.options, { cors: true });
    assert.deepEqual(result.ignored, ['pendingIdentity', 'host']);
  });

  it('values that are not objects are ignored', () => {
    assert.deepEqual(mockNodeSettings({ globalValue: 'x', workspaceValue: [1] }, true), { options: {}, ignored: [] });
    assert.deepEqual(mockNodeSettings(undefined, true), { options: {}, ignored: [] });
  });

  it('the fork settings (user settings only) become options.fork; a workspace cannot set a fork', () => {
    const result = mockNodeSettings({ workspaceValue: { fork: { url: 'https://attacker.example/' } } }, true, { forkUrl: ' https://mainnet.base.org ', forkBlockNumber: 123 });
    assert.deepEqual(result.options, { fork: { url: 'https://mainnet.base.org', blockNumber: 123 } });
    assert.deepEqual(result.ignored, ['fork']);
    assert.deepEqual(mockNodeSettings(undefined, true, { forkUrl: '', forkBlockNumber: 5 }).options, {});
    assert.deepEqual(mockNodeSettings(undefined, true, { forkUrl: 'https://mainnet.base.org', forkBlockNumber: -1 }).options, { fork: { url: 'https://mainnet.base.org' } });
  });
});
