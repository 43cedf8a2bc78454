// The address a request comes from, as Strapi's Koa gives it: the connection's, or behind a trusted
// proxy (config/server `proxy.koa`) the first address of the proxy's header, after keeping only the
// last `maxIpsCount` of them (a proxy appends the address it saw, so only those it wrote are sure).
import type { FastifyRequest } from 'fastify';
import type { ProxyTrust } from '../config/proxy-config.js';

export function clientAddress(req: FastifyRequest, proxy: ProxyTrust | null): string {
  const own = req.socket.remoteAddress ?? '';
  if (proxy === null) return own;
  const raw = req.headers[proxy.header];
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!value) return own;
  let ips = value.split(',').map((s) => s.trim());
  if (proxy.maxIps > 0) ips = ips.slice(-proxy.maxIps);
  // an empty first entry (", 10.0.0.1") counts as none, as in Koa
  return ips[0] || own;
}
