// Random identifiers (the chain's instance id, the generated API key, filter and subscription ids,
// temporary file names) without loading node:crypto at start-up. That module pulls in a dozen
// more (ciphers, key objects, streams) and cost the CLI about 4 ms before its first answer, for
// 44 random bytes. The kernel's generator is read directly where it exists (/dev/urandom: Linux,
// macOS, the BSDs); anywhere else, or if that read fails, node:crypto serves, loaded then.
import { closeSync, openSync, readSync } from 'node:fs';

const POOL_BYTES = 4096;
let pool: Buffer | undefined;
let used = POOL_BYTES;
let kernelSource = process.platform !== 'win32';

function fillFromKernel(target: Buffer): boolean {
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    let filled = 0;
    while (filled < target.length) {
      const read = readSync(fd, target, filled, target.length - filled, null);
      if (read <= 0) return false;
      filled += read;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function fill(target: Buffer): void {
  if (kernelSource && fillFromKernel(target)) return;
  kernelSource = false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('node:crypto') as typeof import('node:crypto')).randomFillSync(target);
}

/** `bytes` cryptographically secure random bytes. Each byte is handed out once. */
export function secureRandomBytes(bytes: number): Buffer {
  if (!Number.isInteger(bytes) || bytes < 0) throw new RangeError(`secureRandomBytes: ${bytes} is not a byte count`);
  if (bytes > POOL_BYTES) {
    const large = Buffer.allocUnsafe(bytes);
    fill(large);
    return large;
  }
  if (pool === undefined || used + bytes > POOL_BYTES) {
    pool ??= Buffer.allocUnsafe(POOL_BYTES);
    fill(pool);
    used = 0;
  }
  const out = Buffer.from(pool.subarray(used, used + bytes));
  pool.fill(0, used, used + bytes);
  used += bytes;
  return out;
}

/** `bytes` random bytes as lowercase hex, without a 0x prefix. */
export function secureRandomHex(bytes: number): string {
  return secureRandomBytes(bytes).toString('hex');
}

/** For the tests: whether the kernel's generator served (false once node:crypto took over). */
export function randomSourceIsKernel(): boolean {
  return kernelSource;
}
