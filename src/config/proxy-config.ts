// `config/server` `proxy.koa`: whether the client address comes from a proxy's header, read as Strapi 5
// reads it (Koa's `proxy`, `proxyIpHeader`, `maxIpsCount`). Strapi 4's `proxy: true` is not read by
// Strapi 5 either: the address stays the connection's.
import { fileBool, fileInt, fileString } from './values.js';

export interface ProxyTrust {
  /** the header naming the client and the proxies it passed, lower-cased */
  readonly header: string;
  /** how many addresses from the right of the header to keep (0, Koa's default: see client-address.ts) */
  readonly maxIps: number;
}

type Obj = Record<string, unknown>;

export function proxyConfig(server: Obj): ProxyTrust | null {
  const proxy = server['proxy'];
  if (typeof proxy !== 'object' || proxy === null || Array.isArray(proxy)) return null;
  const p = proxy as Obj;
  // Strapi hands `koa` to Koa as its `proxy` option, where any truthy value turns it on
  const koa = p['koa'];
  if (!(typeof koa === 'object' && koa !== null) && !fileBool(koa, 'server.proxy.koa', false)) return null;
  const header = fileString(p['ipHeader'], 'server.proxy.ipHeader') || 'X-Forwarded-For';
  return { header: header.toLowerCase(), maxIps: fileInt(p['maxIpsCount'], 'server.proxy.maxIpsCount', 0, 0) };
}
