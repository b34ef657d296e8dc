/**
 * Reads one secret line for a command (`admin account password`): typed at
 * the terminal without echo, or the first line piped to stdin. Never from
 * the command line, where shell history and the process list keep it.
 * @module
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** Reads the secret; `prompt` goes to stderr when a person types it. */
export async function readSecret(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return (Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '');
  }
  process.stderr.write(prompt);
  // What the person types is echoed to a stream that drops it.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return await new Promise<string>((resolve) => rl.once('line', resolve));
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}
