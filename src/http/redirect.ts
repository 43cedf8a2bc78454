// A redirect as Strapi's Koa answers one (koa 2.16 `response.redirect`): 302, the Location, and a
// short body naming the target, as HTML (the URL escaped) when the client takes HTML, else as text.
import type { FastifyReply, FastifyRequest } from 'fastify';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** whether an Accept header takes text/html: none at all does, as does text/* or *\/* with q above 0 */
export function acceptsHtml(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return type === 'text/html' || type === 'text/*' || type === '*/*';
  });
}

function percentEncoded(run: string): string {
  try {
    return encodeURIComponent(run);
  } catch {
    // a lone surrogate: the replacement character, as encodeurl writes it
    return [...run].map((c) => (/[\ud800-\udfff]/.test(c) ? '%EF%BF%BD' : encodeURIComponent(c))).join('');
  }
}

export function redirect(req: FastifyRequest, reply: FastifyReply, url: string): FastifyReply {
  // an absolute URL goes out in its normal form (Koa re-formats it: a bare origin gains its '/')
  const target = /^https?:\/\//i.test(url) ? new URL(url).toString() : url;
  // a header holds printable ASCII only: anything else goes out percent-encoded (Koa's encodeurl)
  reply.code(302).header('location', target.replace(/[^\x21-\x7e]+/gu, percentEncoded));
  if (acceptsHtml(req.headers.accept)) {
    return reply.type('text/html; charset=utf-8').send(`Redirecting to ${target.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)}.`);
  }
  return reply.type('text/plain; charset=utf-8').send(`Redirecting to ${target}.`);
}
