// Every method table of the node. handler.ts builds its dispatch from the catalog and these tables
// (plus the fault-injection methods it owns), and refuses to start when they disagree.
import { accountControlMethods } from './accountControl';
import { blockMethods } from './blocks';
import { chainInfoMethods } from './chainInfo';
import { controlMethods } from './control';
import { filterMethods } from './filters';
import { accessListMethods } from './accessList';
import { debugMethods } from './debug';
import { simulateMethods } from './simulate';
import { logMethods } from './logs';
import { miningMethods } from './mining';
import { nodeInfoMethods } from './nodeInfo';
import { poolMethods } from './pool';
import { proofMethods } from './proofs';
import { reorgControlMethods } from './reorgControl';
import { signingMethods } from './signing';
import { stateMethods } from './state';
import { stateFileMethods } from './stateFile';
import { tokenControlMethods } from './tokenControl';
import { transactionMethods } from './transactions';
import type { MethodTable } from './types';

export const METHOD_TABLES: readonly MethodTable[] = [
  chainInfoMethods, blockMethods, logMethods, filterMethods, stateMethods, proofMethods, accessListMethods, debugMethods, simulateMethods, transactionMethods, signingMethods,
  poolMethods, controlMethods, accountControlMethods, miningMethods, nodeInfoMethods, reorgControlMethods, tokenControlMethods, stateFileMethods,
];
