// Written by test/mock-node/inspection/traceGasCalibration.ts --write: do not edit by hand.
import type { SignatureCallGas } from './signatureCallGas';

export const SIGNATURE_CALL_GAS_TABLE: Record<string, SignatureCallGas> = {
  "transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)": { implementationBefore: 3313n, libraryBefore: 1058n, library: 1277n },
  "transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)": { implementationBefore: 3476n, libraryBefore: 1058n, library: 1277n },
  "receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)": { implementationBefore: 3340n, libraryBefore: 1058n, library: 1277n },
  "receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)": { implementationBefore: 3483n, libraryBefore: 1058n, library: 1277n },
  "cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)": { implementationBefore: 2784n, libraryBefore: 1058n, library: 1277n },
  "cancelAuthorization(address,bytes32,bytes)": { implementationBefore: 2870n, libraryBefore: 1058n, library: 1277n },
  "permit(address,address,uint256,uint256,uint8,bytes32,bytes32)": { implementationBefore: 2792n, libraryBefore: 1058n, library: 1277n },
  "permit(address,address,uint256,uint256,bytes)": { implementationBefore: 2983n, libraryBefore: 1058n, library: 1277n },
};
