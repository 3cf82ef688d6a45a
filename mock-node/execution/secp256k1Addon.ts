// libsecp256k1 as a native Node-API addon, loaded by path with process.dlopen. Two binaries, the
// first that loads wins:
// - prebuilds/<platform>-<arch>/chain-recover.node: our own build (mock-node/native/recover.c, built
//   by mock-node/native/build.mjs where a C compiler and GMP are at hand), about 20 % faster a
//   recovery, with a context made in 1.5 ms instead of 11;
// - the prebuilt binaries the npm package secp256k1 ships (secp256k1[.glibc|.musl].node).
// Node-API is ABI-stable, so one binary serves Node 20+, the single executable and Electron (the
// VS Code extension host). Only the binaries are used, never the package's JavaScript (whose
// fallback is elliptic, slower than our WebAssembly one). Where they are found:
// - beside the bundle that runs (dist/prebuilds/…, copied there by esbuild.mjs; the npm tarball and
//   the VSIX ship that folder; the single executable runs the CLI's bundle with its own folder as
//   __dirname, so it looks beside itself);
// - in the installed package (running from sources: tests, tsx).
// Any other case (another platform, a missing or broken file) answers null: the caller falls back.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What both binaries offer (the package's as a method of its class, src/secp256k1.cc): the one call we make. */
export interface Secp256k1Addon {
  /** Writes the public key into output (65 bytes: uncompressed); 0 = done, 1 = bad signature, 2 = no key. */
  ecdsaRecover(output: Uint8Array, signature64: Uint8Array, recovery: number, digest32: Uint8Array): number;
}

/** Our own build's file name under prebuilds/<platform>-<arch>/ (mock-node/native/build.mjs). */
export const OWN_ADDON_FILE = 'chain-recover.node';

/** Paths under a prebuilds/ folder this process can load, our own build first. */
export function prebuildFiles(platform: string = process.platform, arch: string = process.arch): string[] {
  const folder = `${platform}-${arch}`;
  const packaged = platform === 'linux'
    ? [join(folder, 'secp256k1.glibc.node'), join(folder, 'secp256k1.musl.node')]
    : [join(folder, 'secp256k1.node')];
  return [join(folder, OWN_ADDON_FILE), ...packaged];
}

/**
 * Opens one binary: ours exports ecdsaRecover itself, the package's a class whose instance has it
 * (its constructor makes the context). Throws when the file does not load or offers neither.
 */
export function openSecp256k1Addon(path: string): Secp256k1Addon {
  const holder = { exports: {} as { ecdsaRecover?: Secp256k1Addon['ecdsaRecover']; Secp256k1?: new () => Secp256k1Addon } };
  process.dlopen(holder, path);
  const { ecdsaRecover, Secp256k1 } = holder.exports;
  if (typeof ecdsaRecover === 'function') return { ecdsaRecover };
  if (typeof Secp256k1 !== 'function') throw new Error('neither ecdsaRecover nor a Secp256k1 class');
  const addon = new Secp256k1();
  if (typeof addon.ecdsaRecover !== 'function') throw new Error('no ecdsaRecover');
  return addon;
}

function defaultFolders(): string[] {
  const folders = [join(__dirname, 'prebuilds')];
  // Running from sources (tests, tsx): the repository's build output, where our own build goes.
  if (__filename.endsWith('.ts')) folders.push(join(__dirname, '..', '..', 'dist', 'prebuilds'));
  try {
    folders.push(join(dirname(require.resolve('secp256k1/package.json')), 'prebuilds'));
  } catch {
    // Not installed beside us (the npm tarball, a copied bundle): the bundle's folder only.
  }
  return folders;
}

let status = 'not loaded yet';

/** The file loaded, or why none was (for the tests and a bug report). */
export function addonStatus(): string {
  return status;
}

/** Loads the addon from the first prebuilt binary that opens here; null when none does. */
export function loadSecp256k1Addon(): Secp256k1Addon | null {
  const problems: string[] = [];
  for (const folder of defaultFolders()) {
    for (const file of prebuildFiles()) {
      const path = join(folder, file);
      if (!existsSync(path)) continue;
      try {
        const addon = openSecp256k1Addon(path);
        status = `loaded ${path}`;
        return addon;
      } catch (error) {
        problems.push(`${path}: ${(error as Error).message}`);
      }
    }
  }
  status = problems.length ? `could not load: ${problems.join('; ')}` : `no prebuilt binary for ${process.platform}-${process.arch}`;
  return null;
}
