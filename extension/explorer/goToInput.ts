// What the user typed into Go to…: a block number or tag, a 32-byte hash (a transaction or a
// block), or an address. Pure: no I/O, no vscode import.

export type GoToTarget =
  | { kind: 'block'; number: bigint }
  | { kind: 'tag'; tag: 'latest' | 'pending' | 'safe' | 'finalized' | 'earliest' }
  | { kind: 'hash'; hash: string }
  | { kind: 'address'; address: string };

export type GoToParse = { ok: true; target: GoToTarget } | { ok: false; error: string };

const TAGS = ['latest', 'pending', 'safe', 'finalized', 'earliest'] as const;
/** Block numbers above this are typing mistakes, not blocks (2^53: what JSON numbers hold exactly). */
const MAX_BLOCK = 2n ** 53n;

export function parseGoTo(input: string): GoToParse {
  const text = input.trim().replace(/^#/, '').replace(/[_,\s]/g, '');
  if (text === '') return { ok: false, error: 'type a block number, a block or transaction hash, or an address' };
  const tag = TAGS.find((t) => t === text.toLowerCase());
  if (tag) return { ok: true, target: { kind: 'tag', tag } };
  if (/^\d+$/.test(text)) return blockNumber(BigInt(text));
  if (/^0x[0-9a-fA-F]{64}$/.test(text)) return { ok: true, target: { kind: 'hash', hash: text.toLowerCase() } };
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return { ok: true, target: { kind: 'address', address: text.toLowerCase() } };
  if (/^0x[0-9a-fA-F]{1,16}$/.test(text)) return blockNumber(BigInt(text));
  if (/^(0x)?[0-9a-fA-F]+$/.test(text)) {
    const digits = text.replace(/^0x/, '').length;
    return { ok: false, error: `${digits} hex digits: a hash has 64, an address 40, a block number at most 16` };
  }
  return { ok: false, error: `not a block number, hash or address: ${input.trim().slice(0, 80)}` };
}

function blockNumber(number: bigint): GoToParse {
  if (number > MAX_BLOCK) return { ok: false, error: `block number ${number} is too large` };
  return { ok: true, target: { kind: 'block', number } };
}

/** How a target is named in messages and in the tree. */
export function describeTarget(target: GoToTarget): string {
  switch (target.kind) {
    case 'block': return `block #${target.number}`;
    case 'tag': return `the ${target.tag} block`;
    case 'hash': return `${target.hash.slice(0, 10)}…${target.hash.slice(-6)}`;
    case 'address': return `address ${target.address.slice(0, 8)}…${target.address.slice(-6)}`;
  }
}
