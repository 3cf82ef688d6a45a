// Reading an authorization someone else produced: the Export format, or the seed's stored
// authorization {orderId, authorization, signature}. Pure: no vscode import.
import { CAPTURE_ROUTES, InputError, isBytes32, parseAddress, type AuthorizationPrimaryType, type AuthorizationRecord, type CaptureRoute, type DomainFields } from './model';

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`not JSON: ${(error as Error).message}`);
  }
}

export interface ParsedImport {
  orderId?: string;
  authorization: AuthorizationRecord['authorization'];
  signature: string;
  primaryType?: AuthorizationPrimaryType;
  captureRoute: CaptureRoute;
  domain?: DomainFields;
}

/**
 * Reads the export format, or the seed's stored authorization `{orderId, authorization, signature}`
 * (a seed payload is captured by receiveWithAuthorization, whatever it was signed as).
 */
export function parseImport(value: unknown): ParsedImport {
  if (typeof value !== 'object' || value === null) throw new InputError('expected a JSON object {orderId, authorization, signature}');
  const v = value as Record<string, unknown>;
  const a = v.authorization as Record<string, unknown> | undefined;
  if (typeof a !== 'object' || a === null) throw new InputError('authorization is missing');
  const str = (x: unknown, what: string): string => {
    if (typeof x === 'string' || typeof x === 'number' || typeof x === 'bigint') return String(x);
    throw new InputError(`${what} is missing`);
  };
  const seconds = (x: unknown, what: string): number => {
    const n = Number(str(x, what));
    if (!Number.isSafeInteger(n) || n < 0) throw new InputError(`${what} must be Unix seconds`);
    return n;
  };
  const value256 = str(a.value, 'authorization.value');
  if (!/^\d+$/.test(value256)) throw new InputError('authorization.value must be a whole number of base units');
  const nonce = str(a.nonce, 'authorization.nonce');
  if (!isBytes32(nonce)) throw new InputError('authorization.nonce must be 32 bytes of hex');
  const signature = str(v.signature, 'signature');
  if (!/^0x[0-9a-fA-F]+$/.test(signature)) throw new InputError('signature must be hex');
  const route = v.captureRoute === undefined ? 'receiveWithAuthorization' : str(v.captureRoute, 'captureRoute');
  if (!CAPTURE_ROUTES.includes(route as CaptureRoute)) throw new InputError(`captureRoute must be ${CAPTURE_ROUTES.join(' or ')}`);
  const primaryType = v.primaryType === undefined ? undefined : str(v.primaryType, 'primaryType');
  if (primaryType !== undefined && primaryType !== 'ReceiveWithAuthorization' && primaryType !== 'TransferWithAuthorization') {
    throw new InputError('primaryType must be ReceiveWithAuthorization or TransferWithAuthorization');
  }
  let domain: DomainFields | undefined;
  if (v.domain !== undefined) {
    const d = v.domain as Record<string, unknown>;
    domain = { name: str(d.name, 'domain.name'), version: str(d.version, 'domain.version'), chainId: str(d.chainId, 'domain.chainId'), verifyingContract: parseAddress(str(d.verifyingContract, 'domain.verifyingContract'), 'domain.verifyingContract') };
  }
  return {
    orderId: v.orderId === undefined || v.orderId === null ? undefined : str(v.orderId, 'orderId'),
    authorization: {
      from: parseAddress(str(a.from, 'authorization.from'), 'authorization.from'),
      to: parseAddress(str(a.to, 'authorization.to'), 'authorization.to'),
      value: BigInt(value256).toString(),
      validAfter: seconds(a.validAfter, 'authorization.validAfter'),
      validBefore: seconds(a.validBefore, 'authorization.validBefore'),
      nonce: nonce.toLowerCase(),
    },
    signature,
    primaryType: primaryType as AuthorizationPrimaryType | undefined,
    captureRoute: route as CaptureRoute,
    domain,
  };
}
