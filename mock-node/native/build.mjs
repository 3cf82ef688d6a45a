// Builds our secp256k1 recovery addon (recover.c) into dist/prebuilds/<platform>-<arch>/
// chain-recover.node, where mock-node/execution/secp256k1Addon.ts looks for it before the secp256k1
// package's prebuilt binary. It is an optimisation, never a requirement: where it cannot be built
// (no C compiler, no GMP headers, not Linux) the build says why and goes on, and the node recovers
// with the package's binary as before.
//
// Inputs: the libsecp256k1 sources the npm package secp256k1 vendors (src/secp256k1, MIT), the
// Node-API headers of the npm package node-api-headers (so the build does not depend on where Node
// was installed), a C compiler ($CC, else cc) and GMP (Debian: libgmp-dev; at run time the addon
// needs libgmp.so.10, which Debian's coreutils already depends on). It is rebuilt only when an
// input or a flag changes (a stamp of them beside dist/), and checked before it is kept: it must
// load, and recover the same keys as the package's binary for a set of signatures.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
export const OWN_ADDON_FILE = 'chain-recover.node';

/** Compiler flags: libsecp256k1's configuration (its src/basic-config.h names them) and ours. */
function flags(arch) {
  const x64 = arch === 'x64';
  // 64-bit limbs with 128-bit products where the compiler has them (x86-64 also with the library's
  // assembly for the field), 32-bit limbs elsewhere.
  const wide = x64 || arch === 'arm64';
  return [
    '-shared', '-fPIC', '-O2', '-fvisibility=hidden', '-w',
    '-DNAPI_VERSION=8',
    // A 2^12-entry table of multiples of G: made in 1.5 ms; a 2^15 one (the package's) takes 11 ms
    // and recovers no faster.
    '-DECMULT_WINDOW_SIZE=12', '-DECMULT_GEN_PREC_BITS=4',
    '-DENABLE_MODULE_RECOVERY=1', '-DUSE_ENDOMORPHISM=1',
    // Variable-time inverses of public values through GMP (mpn_gcdext) instead of exponentiation.
    '-DUSE_NUM_GMP=1', '-DUSE_FIELD_INV_NUM=1', '-DUSE_SCALAR_INV_NUM=1',
    ...(wide ? ['-DHAVE___INT128=1', '-DUSE_FIELD_5X52=1', '-DUSE_SCALAR_4X64=1'] : ['-DUSE_FIELD_10X26=1', '-DUSE_SCALAR_8X32=1']),
    ...(x64 ? ['-DUSE_ASM_X86_64=1'] : []),
  ];
}

function compilerVersion(cc) {
  try {
    return execFileSync(cc, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0];
  } catch {
    return undefined;
  }
}

/**
 * A short check in a fresh Node: the addon loads and agrees with the package's binary (or, where
 * that does not load, recovers a key at all) on signatures of every kind, valid or not.
 */
const CHECK = `
const [own, packaged] = process.argv.slice(1);
const load = (path) => { const m = { exports: {} }; process.dlopen(m, path); return m.exports; };
const ours = load(own).ecdsaRecover;
let theirs;
try { const P = load(packaged).Secp256k1; const p = new P(); theirs = (...a) => p.ecdsaRecover(...a); } catch {}
const { randomBytes } = require('node:crypto');
let recovered = 0;
for (let i = 0; i < 200; i++) {
  const signature = i === 0 ? new Uint8Array(64) : i === 1 ? new Uint8Array(64).fill(255) : randomBytes(64);
  const digest = randomBytes(32), a = new Uint8Array(65), b = new Uint8Array(65);
  const code = ours(a, signature, i % 2, digest);
  if (code === 0) recovered++;
  if (theirs && (theirs(b, signature, i % 2, digest) !== code || Buffer.compare(a, b) !== 0)) { console.error('differs from the package binary at ' + i); process.exit(1); }
}
if (recovered < 50) { console.error('recovered only ' + recovered + ' of 200'); process.exit(1); }
`;

/**
 * Builds the addon into `prebuildsDir` (dist/prebuilds) for this platform; answers the file built
 * or kept, or undefined with the reason logged.
 */
export function buildRecoverAddon(prebuildsDir, log = (line) => console.log(line)) {
  const platform = process.platform;
  const arch = process.arch;
  const target = join(prebuildsDir, `${platform}-${arch}`, OWN_ADDON_FILE);
  const stampFile = join(dirname(prebuildsDir), `${OWN_ADDON_FILE}.stamp`);
  const skip = (why) => {
    // No binary of an earlier build stays behind to be loaded instead (the message stays true).
    for (const file of [target, stampFile]) rmSync(file, { force: true });
    log(`chain-recover addon not built (${why}); recoveries use the secp256k1 package's prebuilt binary`);
    return undefined;
  };
  if (platform !== 'linux') return skip(`built on Linux only, this is ${platform}`);
  const cc = process.env.CC || 'cc';
  const version = compilerVersion(cc);
  if (!version) return skip(`no C compiler: ${cc}`);
  const packageDir = dirname(require.resolve('secp256k1/package.json'));
  const source = join(packageDir, 'src', 'secp256k1');
  const packaged = join(packageDir, 'prebuilds', `${platform}-${arch}`, 'secp256k1.glibc.node');
  let headers;
  try {
    headers = require('node-api-headers').include_dir;
  } catch {
    return skip('the node-api-headers package is not installed');
  }
  const addonSource = join(HERE, 'recover.c');
  const args = [
    ...flags(arch),
    `-I${source}`, `-I${join(source, 'src')}`, `-I${headers}`,
    join(source, 'src', 'secp256k1.c'), addonSource,
    '-lgmp',
  ];
  const stamp = createHash('sha256')
    .update(JSON.stringify([cc, version, args.slice(0, -3), require('secp256k1/package.json').version, require('node-api-headers/package.json').version]))
    .update(readFileSync(addonSource))
    .digest('hex');
  const folder = dirname(target);
  if (existsSync(target) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return target;

  mkdirSync(folder, { recursive: true });
  const building = `${target}.${process.pid}.tmp`;
  try {
    execFileSync(cc, [...args, '-o', building], { stdio: ['ignore', 'ignore', 'pipe'] });
    execFileSync(process.execPath, ['-e', CHECK, building, packaged], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    rmSync(building, { force: true });
    const stderr = error.stderr?.toString().trim().split('\n').slice(-3).join(' | ');
    return skip(stderr || error.message);
  }
  renameSync(building, target);
  writeFileSync(stampFile, stamp);
  log(`chain-recover addon built: ${target}`);
  return target;
}

// `node mock-node/native/build.mjs [prebuildsDir]` builds it alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildRecoverAddon(process.argv[2] ?? join(HERE, '..', '..', 'dist', 'prebuilds'));
}
