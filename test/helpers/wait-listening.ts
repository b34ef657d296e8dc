/**
 * Waiting for a server process a test started to accept connections on a
 * loopback port: resolves once it does; rejects (after `stop()`) with its
 * own output when it exits first or does not listen within `timeoutMs`.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** Polls `port` every 50 ms until it accepts a connection. */
export async function waitUntilListening(
  child: ChildProcess,
  port: number,
  options: { name: string; timeoutMs: number; output: () => string; stop: () => Promise<void> },
): Promise<void> {
  const until = Date.now() + options.timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await options.stop();
      throw new Error(`${options.name} exited with ${child.exitCode}:\n${options.output()}`);
    }
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) {
      await options.stop();
      throw new Error(`${options.name} did not listen on ${port} within ${options.timeoutMs / 1000} s:\n${options.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
