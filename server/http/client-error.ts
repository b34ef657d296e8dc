/**
 * Requests Node's HTTP parser rejects before any handler sees them (an
 * unknown method such as `FOO`, a malformed request line or header) get the
 * documented JSON error body too, instead of Node's empty 400. Oversized
 * headers keep Node's 431; a reset connection gets nothing.
 * @module
 */
import type { Duplex } from 'node:stream';
import { errorBody } from '../serving/error-body.ts';

/** Node's parser error, as passed to the server's `clientError` event. */
type ClientError = Error & { code?: string };

/**
 * Answers a parser error with 400 `BAD_REQUEST` as JSON and closes the connection.
 * @example server.on('clientError', answerClientError)
 */
export function answerClientError(error: ClientError, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
    return;
  }
  const body = JSON.stringify(
    errorBody('BAD_REQUEST', 'The request could not be parsed as HTTP (for example an unknown method or a malformed header). Check the method, the request line and the headers.'),
  );
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
