// The address a request comes from: the connection's, or behind a trusted proxy (config/server
// `proxy.koa`) the first address of the proxy's header after keeping only the last `maxIpsCount` of
// them, as Strapi's Koa reads it — except that no count (Koa's 0, "all of them") keeps only the last:
// a client writes the header's first addresses itself, and a proxy only appends the one it saw, so
// keyed by the first a client would choose its own rate-limit window on every request.
import type { FastifyRequest } from 'fastify';
import type { ProxyTrust } from '../config/proxy-config.js';

export function clientAddress(req: FastifyRequest, proxy: ProxyTrust | null): string {
  const own = req.socket.remoteAddress ?? '';
  if (proxy === null) return own;
  const raw = req.headers[proxy.header];
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!value) return own;
  const kept = value
    .split(',')
    .map((s) => s.trim())
    .slice(-Math.max(1, proxy.maxIps));
  // an empty first entry (", 10.0.0.1") counts as none, as in Koa
  return kept[0] || own;
}
