// The token kit: what it computes (slots, signature rules, units, event decoding), that it stays
// light (importing it loads no chain, no Express, no ethers wallet), and that the extension reaches
// the mock node only through its two public entries.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AbiCoder, Interface, keccak256, Wallet, zeroPadValue } from 'ethers';
import {
  SECP256K1_HALF_N,
  STABLE_TOKEN_ABI,
  TOKEN_SLOTS,
  allowanceSlot,
  authorizationStateSlot,
  balanceSlot,
  decodeTokenEvent,
  formatTokenUnits,
  normalizeV,
  parseTokenUnits,
  permitNonceSlot,
  signatureProblem,
  slotHex,
} from '../../../mock-node/tokenKit/index';

const ROOT = join(__dirname, '..', '..', '..');
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const abi = AbiCoder.defaultAbiCoder();

describe('token kit', () => {
  it('loads no chain, no rpc, no Express and no ethers wallet or provider when imported', () => {
    const script = `require('./mock-node/tokenKit/index'); console.log(JSON.stringify(Object.keys(require.cache)));`;
    const loaded: string[] = JSON.parse(execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
    const mine = loaded.map((file) => relative(ROOT, file));
    assert.ok(mine.some((f) => f.startsWith(join('mock-node', 'tokenKit'))), 'the kit itself was loaded');
    const forbidden = [
      /^mock-node[\\/](chain|state|execution|rpc)[\\/]/,
      /^mock-node[\\/](node|index|options|cli)\.ts$/,
      /node_modules[\\/](express|ws)[\\/]/,
      /node_modules[\\/]ethers[\\/]lib\.commonjs[\\/](wallet|providers|contract)[\\/]/,
    ];
    const offenders = mine.filter((f) => forbidden.some((pattern) => pattern.test(f)));
    assert.deepEqual(offenders, []);
  });

  it('computes FiatToken v2.2 slots: keccak256(pad32(key) ++ pad32(slot)), nested for two keys', () => {
    const mapping = (key: string, slot: bigint | string) =>
      BigInt(keccak256(abi.encode(['bytes32', 'uint256'], [zeroPadValue(key, 32), BigInt(slot)])));
    assert.equal(balanceSlot(ALICE), mapping(ALICE, 9n));
    assert.equal(allowanceSlot(ALICE, BOB), mapping(BOB, mapping(ALICE, 10n)));
    const nonce = `0x${'ab'.repeat(32)}`;
    assert.equal(authorizationStateSlot(ALICE, nonce), mapping(nonce, mapping(ALICE, 16n)));
    assert.equal(permitNonceSlot(ALICE), mapping(ALICE, 17n));
    assert.equal(TOKEN_SLOTS.totalSupply, 11n);
    assert.equal(slotHex(TOKEN_SLOTS.totalSupply), '0xb');
  });

  it('applies the token signature rules in its order: length, then s, then v', () => {
    const signature = new Wallet(`0x${'11'.repeat(32)}`).signingKey.sign(`0x${'22'.repeat(32)}`).serialized;
    assert.equal(signatureProblem(signature), undefined);
    assert.equal(signatureProblem(signature.slice(0, -2))?.reason, 'ECRecover: invalid signature length');
    assert.equal(signatureProblem('0x12345')?.reason, 'ECRecover: invalid signature length');
    const highS = `${signature.slice(0, 66)}${(SECP256K1_HALF_N + 1n).toString(16)}00`;
    assert.equal(signatureProblem(highS)?.reason, "ECRecover: invalid signature 's' value");
    assert.equal(signatureProblem(`${signature.slice(0, -2)}01`)?.reason, "ECRecover: invalid signature 'v' value");
    assert.match(signatureProblem(`${signature.slice(0, -2)}01`)?.detail ?? '', /v is 1/);
    assert.equal(normalizeV(`${signature.slice(0, -2)}00`), `${signature.slice(0, -2)}1b`);
    assert.equal(normalizeV(`${signature.slice(0, -2)}01`), `${signature.slice(0, -2)}1c`);
    assert.equal(normalizeV(`${signature.slice(0, -2)}1c`), `${signature.slice(0, -2)}1c`);
  });

  it('parses and formats 6-decimal amounts exactly, without floats', () => {
    assert.equal(parseTokenUnits('12.5'), 12_500_000n);
    assert.equal(parseTokenUnits('0.000001'), 1n);
    assert.equal(parseTokenUnits('.25'), 250_000n);
    assert.equal(parseTokenUnits('9007199254740993.000001'), 9_007_199_254_740_993_000_001n);
    assert.equal(parseTokenUnits('1.5', 18), 1_500_000_000_000_000_000n);
    for (const bad of ['-1', '1e6', '1.0000001', '', 'abc', '1.2.3', `${2n ** 255n}`]) assert.throws(() => parseTokenUnits(bad), RangeError, bad);
    assert.equal(formatTokenUnits(12_500_000n), '12.5');
    assert.equal(formatTokenUnits(10_000_000_000n), '10000');
    assert.equal(formatTokenUnits(1_234_567_890_000_001n, { group: true }), '1,234,567,890.000001');
    assert.equal(formatTokenUnits(-1n), '-0.000001');
    for (const text of ['0', '0.1', '123456789.987654']) assert.equal(formatTokenUnits(parseTokenUnits(text)), text);
  });

  it('decodes every event of its ABI and nothing else', () => {
    const iface = new Interface(STABLE_TOKEN_ABI as unknown as string[]);
    const transfer = iface.encodeEventLog('Transfer', [ALICE, BOB, 1_500_000n]);
    assert.deepEqual(decodeTokenEvent(transfer), {
      name: 'Transfer',
      args: [
        { name: 'from', type: 'address', value: ALICE },
        { name: 'to', type: 'address', value: BOB },
        { name: 'value', type: 'uint256', value: 1_500_000n },
      ],
    });
    const nonce = `0x${'cd'.repeat(32)}`;
    assert.equal(decodeTokenEvent(iface.encodeEventLog('AuthorizationCanceled', [ALICE, nonce]))?.args[1].value, nonce);
    assert.equal(decodeTokenEvent(iface.encodeEventLog('Pause', []))?.name, 'Pause');
    assert.equal(decodeTokenEvent({ topics: [`0x${'12'.repeat(32)}`], data: '0x' }), undefined);
    assert.equal(decodeTokenEvent({ topics: [transfer.topics[0]], data: '0x' }), undefined, 'a Transfer without its indexed topics');
  });
});

describe('the extension and the mock node', () => {
  it('the extension imports the mock node only through mock-node/index.ts (types and the lazily loaded node), mock-node/tokenKit/index.ts, mock-node/catalog/index.ts, mock-node/presets/index.ts and mock-node/x402/wire/index.ts', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts')) files.push(path);
      }
    };
    walk(join(ROOT, 'extension'));
    const offenders: string[] = [];
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']*mock-node\/[^']*)'/g)) {
        if (!/mock-node\/(index|tokenKit\/index|catalog\/index|presets\/index|x402\/wire\/index)$/.test(match[1])) offenders.push(`${relative(ROOT, file)}: ${match[1]}`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});
