// What the router and Node's HTTP parser refuse before any route runs, answered in the API's error
// shape ({data: null, error: {status, name, message}}) instead of Fastify's own bodies, which echoed
// the URL back and carried none of the response headers.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler.js';

/**
 * Fastify's `frameworkErrors`, for a URL whose percent-encoding doesn't decode (Strapi 5.54: `400
 * BadRequestError "failed to decode"`). No hook runs for it, so the response headers every answer
 * carries are given here: `headers` is read when the error happens (they are known once the app is built).
 */
export function frameworkErrorAnswer(headers: () => Readonly<Record<string, string>>) {
  return (error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
    void reply.headers(headers());
    if (error.code === 'FST_ERR_BAD_URL') void reply.code(400).send(errorBody(400, 'BadRequestError', 'failed to decode'));
    else void reply.code(400).send(errorBody(400, 'BadRequestError', 'Bad Request'));
  };
}

/** the status Node itself would answer a request its parser refused with, and its error's name as Koa's http-errors give it */
function clientErrorStatus(code: string | undefined): [number, string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'RequestTimeoutError'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'RequestHeaderFieldsTooLargeError'];
  return [400, 'BadRequestError'];
}

/** Fastify's `clientErrorHandler`: a request Node's parser refused (an unknown method, headers over the limit…). */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // a reset connection has nobody to answer
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const [status, name] = clientErrorStatus(err.code);
    const reason = STATUS_CODES[status] ?? 'Bad Request';
    const body = JSON.stringify(errorBody(status, name, reason));
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
