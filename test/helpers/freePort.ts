// A TCP port free on the loopback interface right now (the OS picks it): for the processes the
// tests and the bench start (the mock node's CLI, Anvil, code-server).
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
