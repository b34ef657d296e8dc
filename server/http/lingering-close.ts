/**
 * Lingering close, as nginx does it (`lingering_close`): a request refused
 * before its body was read (429 `TOO_MANY_UPLOADS`, 413) is answered with
 * `Connection: close`, and Node then destroys the socket as soon as the
 * answer is written. With the client's body still arriving, the kernel
 * answers the unread bytes with a reset, and a reset makes the client's
 * kernel drop the answer it had received but not yet read: the client sees
 * "connection reset" instead of the 429 and its `Retry-After`. Measured on
 * loopback: 10 of 10 answers lost to a client that reads only after
 * sending. So the socket is half-closed instead (the answer and a FIN go
 * out) and what still arrives is read and dropped, until the client closes
 * its side or a bound in time or bytes is reached; then it is destroyed.
 * @module
 */
import type { Socket } from 'node:net';

/** How long, and how much, a refused request's body is read and dropped before the socket is destroyed. */
export const LINGER_LIMITS = { timeoutMs: 5_000, maxBytes: 32 * 1024 * 1024 } as const;

const LINGERING = Symbol('pressroom.lingering');

/**
 * Makes the socket's next close (Node's `destroySoon`, called once an answer with `Connection: close` is
 * written) a lingering one. Calling it again for the same socket changes nothing.
 */
export function lingerOnClose(socket: Socket, limits: { timeoutMs: number; maxBytes: number } = LINGER_LIMITS): void {
  const marked = socket as Socket & { [LINGERING]?: true };
  if (marked[LINGERING]) return;
  marked[LINGERING] = true;
  let closing = false;
  socket.destroySoon = () => {
    if (closing) return;
    closing = true;
    if (socket.writable) socket.end();
    let read = 0;
    const destroy = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(destroy, limits.timeoutMs);
    timer.unref();
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.maxBytes) destroy();
    });
    socket.once('end', destroy);
    socket.once('error', destroy);
    socket.once('close', () => clearTimeout(timer));
    socket.resume();
  };
}
