// Signing for the node's dev accounts, as Anvil and geth offer it: eth_sign and personal_sign
// (EIP-191 personal messages) and eth_signTypedData_v4 (EIP-712). Signatures are 65 bytes
// r ‖ s ‖ v with v 27/28 and low s, the form the token's ECRecover accepts.
import { TypedDataEncoder, concat, getBytes, keccak256, toUtf8Bytes, type TypedDataField, type Wallet } from 'ethers';
import { RpcError, ErrorCode, invalidParams } from '../errors';
import { parseAddress } from '../params';
import { scalarFault } from '../../catalog/index';
import type { MethodContext, MethodTable } from './types';

function walletFor(address: string, ctx: MethodContext): Wallet {
  const wallet = ctx.node.accounts.wallet(address);
  if (!wallet) {
    throw new RpcError(
      ErrorCode.InvalidInput,
      `unknown account ${address}: the node signs only for its dev accounts (see eth_accounts)`,
    );
  }
  return wallet;
}

/** Message bytes: 0x-hex is taken as bytes (geth's rule); any other string as UTF-8 text. */
function messageBytes(value: unknown, index: number): Uint8Array {
  const fault = scalarFault('message', value);
  if (fault) throw invalidParams(`invalid argument ${index}: ${fault.rule === 'not-string' ? 'message must be a string' : 'hex string of odd length'}`);
  return /^0x[0-9a-f]*$/i.test(value as string) ? getBytes(value as string) : toUtf8Bytes(value as string);
}

const isAddress = (value: unknown): value is string => typeof value === 'string' && /^0x[0-9a-f]{40}$/i.test(value);

interface TypedDataPayload {
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

function parseTypedData(value: unknown): TypedDataPayload {
  let data = value;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      throw invalidParams('invalid argument 1: typed data must be a JSON object or a JSON string');
    }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw invalidParams('invalid argument 1: typed data must be an object');
  const o = data as Record<string, unknown>;
  const isObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(o.types)) throw invalidParams('invalid argument 1: typed data needs a "types" object');
  if (typeof o.primaryType !== 'string') throw invalidParams('invalid argument 1: typed data needs a "primaryType" string');
  if (!isObject(o.domain)) throw invalidParams('invalid argument 1: typed data needs a "domain" object');
  if (!isObject(o.message)) throw invalidParams('invalid argument 1: typed data needs a "message" object');
  const types = o.types as Record<string, unknown>;
  for (const [name, fields] of Object.entries(types)) {
    if (!Array.isArray(fields) || !fields.every((f) => isObject(f) && typeof f.name === 'string' && typeof f.type === 'string')) {
      throw invalidParams(`invalid argument 1: type ${name} must be a list of {name, type}`);
    }
  }
  if (!(o.primaryType in types)) throw invalidParams(`invalid argument 1: primaryType ${o.primaryType} is not among the types`);
  return o as unknown as TypedDataPayload;
}

/** The types reachable from `root` (ethers wants exactly one root type). */
function reachableTypes(types: Record<string, TypedDataField[]>, root: string): Record<string, TypedDataField[]> {
  const result: Record<string, TypedDataField[]> = {};
  const visit = (name: string) => {
    if (result[name] || !types[name]) return;
    result[name] = types[name];
    for (const field of types[name]) visit(field.type.replace(/(\[\d*\])+$/, ''));
  };
  visit(root);
  return result;
}

/** The EIP-712 digest of an eth_signTypedData_v4 payload. */
export function typedDataDigest(payload: TypedDataPayload): string {
  const { EIP712Domain: domainType, ...types } = payload.types;
  if (payload.primaryType === 'EIP712Domain') throw invalidParams('invalid argument 1: primaryType must not be EIP712Domain');
  try {
    const domainHash = domainType
      ? TypedDataEncoder.from({ EIP712Domain: domainType }).hashStruct('EIP712Domain', payload.domain)
      : TypedDataEncoder.hashDomain(payload.domain);
    const structHash = TypedDataEncoder.from(reachableTypes(types, payload.primaryType)).hashStruct(payload.primaryType, payload.message);
    return keccak256(concat(['0x1901', domainHash, structHash]));
  } catch (error) {
    throw invalidParams(`invalid argument 1: ${(error as Error).message}`);
  }
}

function signPersonal(wallet: Wallet, message: Uint8Array): string {
  return wallet.signMessageSync(message);
}

export const signingMethods: MethodTable = {
  /** eth_sign(address, data): EIP-191 personal message signature, as geth and Anvil compute it. */
  eth_sign: (params, ctx) => {
    const address = parseAddress(params[0], 0);
    return signPersonal(walletFor(address, ctx), messageBytes(params[1], 1));
  },
  /** personal_sign(data, address[, password]); the swapped order some clients send is accepted too. */
  personal_sign: (params, ctx) => {
    let [data, address] = params;
    if (!isAddress(address) && isAddress(data)) [data, address] = [address, data];
    return signPersonal(walletFor(parseAddress(address, 1), ctx), messageBytes(data, 0));
  },
  /** eth_signTypedData_v4(address, typedData): typedData as an object or a JSON string. */
  eth_signTypedData_v4: (params, ctx) => {
    const address = parseAddress(params[0], 0);
    const wallet = walletFor(address, ctx);
    const digest = typedDataDigest(parseTypedData(params[1]));
    return wallet.signingKey.sign(digest).serialized;
  },
};
