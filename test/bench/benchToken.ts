// An ERC-20 for Anvil (an EVM node has no built-in token), so both nodes run the same token
// traffic: balances, transfer and the Transfer event, like the mock node's token transfer.
// Compiled with solc 0.8.30+commit.73712a01 (optimizer on, 200 runs, evm cancun) from:
//
//   // SPDX-License-Identifier: MIT
//   pragma solidity 0.8.30;
//   contract BenchToken {
//       mapping(address => uint256) public balanceOf;
//       event Transfer(address indexed from, address indexed to, uint256 value);
//       constructor(address[] memory holders, uint256 amount) {
//           for (uint256 i = 0; i < holders.length; i++) {
//               balanceOf[holders[i]] = amount;
//               emit Transfer(address(0), holders[i], amount);
//           }
//       }
//       function transfer(address to, uint256 value) external returns (bool) {
//           uint256 balance = balanceOf[msg.sender];
//           require(balance >= value, "ERC20: transfer amount exceeds balance");
//           unchecked {
//               balanceOf[msg.sender] = balance - value;
//           }
//           balanceOf[to] += value;
//           emit Transfer(msg.sender, to, value);
//           return true;
//       }
//   }
import { AbiCoder, getCreateAddress } from 'ethers';
import { call } from './rpcClient';
import { signTransaction, type DevKey } from './traffic';

/** The creation code (constructor arguments appended after it). */
export const CREATION_CODE =
  '0x608060405234801561000f575f5ffd5b5060405161044d38038061044d83398101604081905261002e9161011e565b5f5b82518110156100e757815f5f85848151811061004e5761004e6101f2565b60200260200101516001600160a01b03166001600160a01b031681526020019081526020015f208190555082818151811061008b5761008b6101f2565b60200260200101516001600160a01b03165f6001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef846040516100d791815260200190565b60405180910390a3600101610030565b505050610206565b634e487b7160e01b5f52604160045260245ffd5b80516001600160a01b0381168114610119575f5ffd5b919050565b5f5f6040838503121561012f575f5ffd5b82516001600160401b03811115610144575f5ffd5b8301601f81018513610154575f5ffd5b80516001600160401b0381111561016d5761016d6100ef565b604051600582901b90603f8201601f191681016001600160401b038111828210171561019b5761019b6100ef565b6040529182526020818401810192908101888411156101b8575f5ffd5b6020850194505b838510156101de576101d085610103565b8152602094850194016101bf565b506020969096015195979596505050505050565b634e487b7160e01b5f52603260045260245ffd5b61023a806102135f395ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c806370a0823114610038578063a9059cbb1461006a575b5f5ffd5b61005761004636600461019d565b5f6020819052908152604090205481565b6040519081526020015b60405180910390f35b61007d6100783660046101bd565b61008d565b6040519015158152602001610061565b335f90815260208190526040812054828110156100ff5760405162461bcd60e51b815260206004820152602660248201527f45524332303a207472616e7366657220616d6f756e7420657863656564732062604482015265616c616e636560d01b606482015260840160405180910390fd5b335f9081526020819052604080822085840390556001600160a01b0386168252812080548592906101319084906101e5565b90915550506040518381526001600160a01b0385169033907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a360019150505b92915050565b80356001600160a01b0381168114610198575f5ffd5b919050565b5f602082840312156101ad575f5ffd5b6101b682610182565b9392505050565b5f5f604083850312156101ce575f5ffd5b6101d783610182565b946020939093013593505050565b8082018082111561017c57634e487b7160e01b5f52601160045260245ffdfea2646970667358221220f8549fe59db2381d7c6c11562be7ed40c86017fa62f98a5ce0855f6f452b5dd664736f6c634300081e0033';

/** Deploys the token from `deployer` with `amount` for every holder; resolves to its address once mined. */
export async function deployBenchToken(url: string, deployer: DevKey, holders: readonly string[], amount: bigint): Promise<string> {
  const nonce = Number(await call(url, 'eth_getTransactionCount', [deployer.address, 'pending']));
  const args = AbiCoder.defaultAbiCoder().encode(['address[]', 'uint256'], [holders, amount]).slice(2);
  const raw = signTransaction(deployer, { to: null, nonce, data: CREATION_CODE + args, gasLimit: 3_000_000n });
  await call(url, 'eth_sendRawTransaction', [raw]);
  await call(url, 'evm_mine', []);
  const address = getCreateAddress({ from: deployer.address, nonce });
  const code = await call<string>(url, 'eth_getCode', [address, 'latest']);
  if (code === '0x') throw new Error('BenchToken deployment failed');
  return address.toLowerCase();
}
