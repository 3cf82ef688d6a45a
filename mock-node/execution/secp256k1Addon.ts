// libsecp256k1 as a native Node-API addon: the prebuilt binaries the npm package secp256k1 ships
// (prebuilds/<platform>-<arch>/secp256k1[.glibc|.musl].node), loaded by path with process.dlopen.
// Node-API is ABI-stable, so one binary serves Node 20+, the single executable and Electron (the
// VS Code extension host). Only the binary is used, never the package's JavaScript (whose fallback
// is elliptic, slower than our WebAssembly one). Where the binary is found:
// - beside the bundle that runs (dist/prebuilds/…, copied there by esbuild.mjs; the npm tarball and
//   the VSIX ship that folder);
// - in the installed package (running from sources: tests, tsx);
// - beside the single executable (mock-node/seaMain.ts names that folder with useAddonFolder()).
// Any other case (another platform, a missing or broken file) answers null: the caller falls back.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The addon's class (src/secp256k1.cc of the package): the one method we call. */
export interface Secp256k1Addon {
  /** Writes the public key into output (65 bytes: uncompressed); 0 = done, 1 = bad signature, 2 = no key. */
  ecdsaRecover(output: Uint8Array, signature64: Uint8Array, recovery: number, digest32: Uint8Array): number;
}

/** Paths under a prebuilds/ folder this process can load, most likely first. */
export function prebuildFiles(platform: string = process.platform, arch: string = process.arch): string[] {
  const folder = `${platform}-${arch}`;
  return platform === 'linux'
    ? [join(folder, 'secp256k1.glibc.node'), join(folder, 'secp256k1.musl.node')]
    : [join(folder, 'secp256k1.node')];
}

let addonFolders: string[] | undefined;

/** Looks for prebuilds/ in `folder` only (the single executable: the folder it sits in). */
export function useAddonFolder(folder: string): void {
  addonFolders = [join(folder, 'prebuilds')];
}

function defaultFolders(): string[] {
  const folders = [join(__dirname, 'prebuilds')];
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
  for (const folder of addonFolders ?? defaultFolders()) {
    for (const file of prebuildFiles()) {
      const path = join(folder, file);
      if (!existsSync(path)) continue;
      try {
        const holder = { exports: {} as { Secp256k1?: new () => Secp256k1Addon } };
        process.dlopen(holder, path);
        const Addon = holder.exports.Secp256k1;
        if (typeof Addon !== 'function') throw new Error('no Secp256k1 class');
        const addon = new Addon();
        if (typeof addon.ecdsaRecover !== 'function') throw new Error('no ecdsaRecover');
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
