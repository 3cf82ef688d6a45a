// The single executable's entry (npm run build:sea, mock-node/package/sea.mjs). Node builds the
// executable's startup snapshot by running this bundle once: every module of the node is loaded
// and evaluated then, and the executable starts from that heap, running only main(). Nothing
// here may start a server, a timer or a random value at that time: only main() does, at start.
// A native addon cannot live in the snapshot: sender recovery loads libsecp256k1's from the
// prebuilds/ folder beside the executable when it is there (sea.mjs puts it there), else it
// uses the WebAssembly (or JavaScript) backend.
import './singleExecutableMark';
import { dirname } from 'node:path';
import { startupSnapshot } from 'node:v8';
import { main } from './cli';
import { useAddonFolder } from './execution/secp256k1Addon';

if (startupSnapshot.isBuildingSnapshot()) {
  startupSnapshot.setDeserializeMainFunction(() => {
    useAddonFolder(dirname(process.execPath));
    void main();
  });
}
