/**
 * A free loopback port for a server a test starts as a process of its own
 * (nginx, wrangler): bound and released at once; nothing else on the
 * machine races for it in practice.
 * @module
 */
import net from 'node:net';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
