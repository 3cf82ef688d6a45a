// The single executable's entry (npm run build:sea, mock-node/package/sea.mjs). Node builds the
// executable's startup snapshot by running this bundle once: every module of the node is loaded
// and evaluated then, and the executable starts from that heap, running only main(). Nothing
// kept in the snapshot may hold a server, a timer or a random value: only main() makes them, at
// start. The start-up path also runs once at build time on a throwaway core, so the snapshot
// holds its functions compiled (V8 keeps their bytecode); without that the executable compiled
// each of them from source at every start (callgrind, instructions to the first eth_chainId
// answer: 202 M -> 184 M).
// WebAssembly does not exist while Node builds a snapshot: the keccak backend chosen then is
// forgotten at start (WebAssembly loads at the first hash of the running executable).
// A native addon cannot live in the snapshot: sender recovery loads libsecp256k1's from the
// prebuilds/ folder beside the executable when it is there (sea.mjs puts it there), else it
// uses the WebAssembly (or JavaScript) backend.
import './singleExecutableMark';
import { dirname } from 'node:path';
import { startupSnapshot } from 'node:v8';
import { main, parseCommandLine } from './cli';
import { reloadKeccakBackend } from './chain/keccak';
import { useAddonFolder } from './execution/secp256k1Addon';
import { createMockNodeCore } from './node';

/**
 * At build time, runs the start-up path once on a throwaway core (no server, no timers, a fixed
 * key), so that its functions are compiled in the snapshot: otherwise the executable compiles
 * each of them lazily, from source, at every start.
 */
async function compileStartupPath(): Promise<void> {
  parseCommandLine(['--port', '0', '--quiet']);
  const core = await createMockNodeCore({ quiet: true, apiKey: 'snapshot-build', logLevel: 'off' });
  await core.handle({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, 'public');
  await core.handle({ jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] }, 'public');
  await core.autosave.stop();
  // The genesis block's bytes are packed on the next turn of the event loop (chain/sealedBlock.ts):
  // let that run too, so no packing is left scheduled in the snapshot.
  await new Promise((resolve) => setImmediate(resolve));
}

if (startupSnapshot.isBuildingSnapshot()) {
  void compileStartupPath();
  startupSnapshot.setDeserializeMainFunction(() => {
    useAddonFolder(dirname(process.execPath));
    // WebAssembly does not exist while Node builds the snapshot: the hashes of the build ran on the
    // JavaScript keccak, a choice the executable must not keep.
    reloadKeccakBackend();
    void main();
  });
}
