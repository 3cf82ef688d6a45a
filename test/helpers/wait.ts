// Waiting on a condition instead of a clock: polls `probe` until it answers something truthy (which
// it returns), and fails naming what it waited for when the limit passes. The limit is only a
// guard against a hang; a slow machine makes the wait longer, never the test wrong.
export async function waitUntil<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, limitMs = 10_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
