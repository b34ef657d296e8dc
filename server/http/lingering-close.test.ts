import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { lingerOnClose } from './lingering-close.ts';

let server: http.Server | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** A server that refuses every request with 429 and `Connection: close` before reading its body. */
async function refusingServer(limits?: { timeoutMs: number; maxBytes: number }): Promise<number> {
  server = http.createServer((req, res) => {
    lingerOnClose(req.socket, limits);
    res.writeHead(429, { 'content-type': 'text/plain', connection: 'close', 'retry-after': '5' });
    res.end('refused');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/**
 * A client that sends a whole `size`-byte body before it reads anything, as a busy client does: without a
 * lingering close, the server's reset arrives first and the kernel drops the answer (measured: 10 of 10).
 */
function sendThenRead(port: number, size: number, options: { closeWhenSent?: boolean } = {}): Promise<{ answer: string; closedAt: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString(), closedAt: performance.now() }));
    socket.write(`POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: ${size}\r\n\r\n`);
    const block = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += block.length;
        if (!socket.write(block)) return void socket.once('drain', pump);
      }
      // Sent: now read what came back (after the server has certainly answered and closed its side).
      setTimeout(() => {
        socket.resume();
        if (options.closeWhenSent) socket.end();
      }, 200);
    };
    setTimeout(pump, 50);
  });
}

describe('lingering close', () => {
  it('lets a client that reads only after sending its whole body read the refusal', async () => {
    const port = await refusingServer();
    for (let i = 0; i < 5; i += 1) {
      const { answer } = await sendThenRead(port, 8 * 1024 * 1024, { closeWhenSent: true });
      expect(answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(answer).toContain('retry-after: 5');
      expect(answer).toContain('refused');
    }
  });

  it('ends the connection once the client has closed its side', async () => {
    const port = await refusingServer({ timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 });
    const { answer } = await sendThenRead(port, 1024 * 1024, { closeWhenSent: true });
    expect(answer).toMatch(/^HTTP\/1\.1 429 /);
  });

  it('gives up on a client that keeps the connection open past the time bound', async () => {
    const port = await refusingServer({ timeoutMs: 300, maxBytes: 64 * 1024 * 1024 });
    const started = performance.now();
    // Never closes its side: the server's bound ends the connection (the test would time out otherwise).
    const { answer, closedAt } = await sendThenRead(port, 256 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 429 /);
    expect(closedAt - started).toBeGreaterThanOrEqual(250);
  });

  it('stops reading a body past the byte bound', async () => {
    const port = await refusingServer({ timeoutMs: 60_000, maxBytes: 512 * 1024 });
    // 64 MB would take a while to read and drop; past 512 KB the server stops and the connection ends.
    const { closedAt } = await Promise.race([
      sendThenRead(port, 64 * 1024 * 1024),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the connection was not ended at the byte bound')), 30_000)),
    ]);
    expect(closedAt).toBeGreaterThan(0);
  });
});
