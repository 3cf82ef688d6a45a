// The single executable's entry (npm run build:sea, mock-node/package/sea.mjs). Node builds the
// executable's startup snapshot by running this bundle once: every module of the node is loaded
// and evaluated then, and the executable starts from that heap, running only main(). Nothing
// here may start a server, a timer or a random value at that time: only main() does, at start.
import { startupSnapshot } from 'node:v8';
import { main } from './cli';

if (startupSnapshot.isBuildingSnapshot()) startupSnapshot.setDeserializeMainFunction(() => void main());
