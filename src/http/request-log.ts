// Request logs: one pino line per request (method, url, status, response time in ms, Fastify's
// reqId), as strapi::logger prints one per request, on unless FOLIO_LOG=false (off under
// NODE_ENV=test). Credentials never reach the log: no header is logged, and the values of query
// parameters that carry secrets (OAuth callbacks' access_token, email confirmation tokens, ...) are
// replaced before a URL is written, also in Fastify's own lines (not-found, server errors).
import { LogController, type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

type DestinationStream = { write(line: string): void };

const SECRET_PARAM = /token|secret|passw|confirmation|signature|credential|jwt|session|api[-_]?key|(^|[^a-z])code($|[^a-z])/i;

/** `url` with the values of secret-looking query parameters replaced by [redacted] */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        /* keep it encoded */
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

/** Fastify's two lines per request (incoming, completed) become one, written when the response is done. */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  // the completed line says it with the status; Fastify's own line would carry the raw URL
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const url = redactUrl(request.url);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = { method: request.method, url, statusCode: reply.statusCode, responseTime: ms };
    const msg = `${request.method} ${url} ${reply.statusCode} ${ms} ms`;
    if (error) reply.log.error({ ...line, err: error }, msg);
    else reply.log.info(line, msg);
  }
}

/** Fastify's logger options: request lines when `enabled`, else only errors (a 500's cause stays visible) */
export function serverLogOptions(enabled: boolean, stream?: DestinationStream): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  return {
    logger: {
      level: enabled ? 'info' : 'error',
      serializers: {
        req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url) }),
        err: (err: FastifyError) => ({ type: err.name, message: err.message, stack: err.stack ?? '', ...(err.code ? { code: err.code } : {}) }),
      },
      ...(stream ? { stream } : {}),
    },
    ...(enabled ? { logController: new OneLinePerRequest() } : {}),
  };
}
