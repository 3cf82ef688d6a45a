// Node's single-executable-application steps, shared by `npm run build:sea` (sea.mjs) and the
// bench's reference row (an empty executable, test/bench/sections/startup.ts): a preparation blob
// from a sea-config, injected by postject into a copy of the running `node` binary.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The fuse Node's binary carries for postject (the same in every Node release with SEA support). */
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Writes `output`, an executable running `config.main` (a sea-config's fields: main, useSnapshot,
 * assets, …). The blob and the config are written beside it and removed afterwards.
 */
export function makeSingleExecutable(config, output, { stdio = ['ignore', 'inherit', 'inherit'] } = {}) {
  const blob = `${output}.blob`;
  const configFile = `${output}.sea-config.json`;
  try {
    writeFileSync(configFile, JSON.stringify({ disableExperimentalSEAWarning: true, ...config, output: blob }, null, 2));
    execFileSync(process.execPath, ['--experimental-sea-config', configFile], { cwd: root, stdio });
    rmSync(output, { force: true });
    copyFileSync(process.execPath, output);
    chmodSync(output, 0o755);
    const args = [join(root, 'node_modules', 'postject', 'dist', 'cli.js'), output, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SENTINEL_FUSE];
    if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
    try {
      execFileSync(process.execPath, args, { cwd: root, stdio: 'pipe' });
    } catch (error) {
      process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
      throw error;
    }
  } finally {
    rmSync(blob, { force: true });
    rmSync(configFile, { force: true });
  }
  return output;
}
