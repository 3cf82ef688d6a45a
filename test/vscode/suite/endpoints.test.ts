// Endpoints from settings and from the secret storage.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closedPort, waitFor } from './helpers';

describe('endpoints', () => {
  it('keeps a URL that holds a key in the secret storage and shows it masked', async () => {
    const explorer = await api();
    const key = 'AbCdEf0123456789SecretKeyXyz';
    const id = await vscode.commands.executeCommand<string>('chainExplorer.addEndpoint', 'Keyed', `http://127.0.0.1:9/v2/${key}`);
    assert.match(id, /^ep:secret:/);
    const settings = JSON.stringify(vscode.workspace.getConfiguration('chainExplorer').get('endpoints'));
    assert.ok(!settings.includes(key), 'the key is not in the settings');
    const root = await waitFor('the Keyed endpoint', async () => (await explorer.tree.getChildren()).find((r) => r.spec.label === 'Keyed'));
    assert.equal(root.spec.description, 'http://127.0.0.1:9/v2/••••');
    await vscode.commands.executeCommand('chainExplorer.renameEndpoint', root, 'Keyed renamed');
    const renamed = await waitFor('the renamed endpoint', async () => (await explorer.tree.getChildren()).find((r) => r.spec.label === 'Keyed renamed'));
    await vscode.commands.executeCommand('chainExplorer.removeEndpoint', renamed);
    await waitFor('the endpoint to go', async () => !(await explorer.tree.getChildren()).some((r) => r.spec.label.startsWith('Keyed')));
  });

  it('adds a keyless URL to the settings and shows an unreachable endpoint as an error, not a crash', async () => {
    const explorer = await api();
    const url = `http://127.0.0.1:${await closedPort()}/`;
    await vscode.commands.executeCommand('chainExplorer.addEndpoint', 'Nowhere', url);
    const endpoints = vscode.workspace.getConfiguration('chainExplorer').get<{ name: string; url: string }[]>('endpoints') ?? [];
    assert.deepEqual(endpoints.find((e) => e.name === 'Nowhere'), { name: 'Nowhere', url });
    const root = await waitFor('Nowhere', async () => (await explorer.tree.getChildren()).find((r) => r.spec.label === 'Nowhere'));
    const children = await explorer.tree.getChildren(root);
    assert.match(children[0].spec.label, /^endpoint unreachable: ECONNREFUSED/);
    await vscode.commands.executeCommand('chainExplorer.removeEndpoint', root);
    await waitFor('Nowhere to go', async () => !(await explorer.tree.getChildren()).some((r) => r.spec.label === 'Nowhere'));
  });

  it('moves a URL with a key typed into the settings to the secret storage', async () => {
    const explorer = await api();
    const key = 'ZyXwVu9876543210KeyInSettings';
    const config = vscode.workspace.getConfiguration('chainExplorer');
    await config.update('endpoints', [{ name: 'Typed', url: `http://127.0.0.1:${await closedPort()}/v3/${key}` }], vscode.ConfigurationTarget.Global);
    const root = await waitFor('Typed', async () => (await explorer.tree.getChildren()).find((r) => r.spec.label === 'Typed'));
    assert.ok(!JSON.stringify(root.spec).includes(key), 'shown masked even while in the settings');
    const moved = await vscode.commands.executeCommand<string[]>('chainExplorer.moveKeysToSecretStorage');
    assert.deepEqual(moved, ['Typed']);
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('chainExplorer').get('endpoints')).includes(key), 'the key left the settings');
    const secret = await waitFor('Typed from the secret storage', () => explorer.registry.list().find((e) => e.name === 'Typed' && e.source === 'secret'));
    await vscode.commands.executeCommand('chainExplorer.removeEndpoint', explorer.tree.node(secret.id));
    await waitFor('Typed to go', () => !explorer.registry.list().some((e) => e.name === 'Typed'));
  });
});
