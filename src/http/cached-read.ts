// The response cache as content read routes use it: look up after the permission check, serialize
// once on a miss and keep the body for the next identical request by the same caller.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/authenticate.js';
import { cacheableUrl, type Dependencies } from './response-cache.js';
import type { Database } from '../database/dialect.js';
import { VOLATILE_TABLES } from '../database/table-versions.js';
import type { RecordedReads } from '../database/read-recording.js';
import { VersionClock, type TableState } from './version-clock.js';
import type { Services } from './services.js';
import { readGated, sendGated, serializeGated, serveRead, type ReadFn } from './gated-read.js';

export interface CachedRead {
  /** the stored body for this request, when there is one */
  readonly hit: Buffer | undefined;
  /**
   * reads the payload and sends it, keeping its serialization — with the tables the read named —
   * when the data didn't move meanwhile
   */
  serve(reply: FastifyReply, read: ReadFn): Promise<FastifyReply>;
}

/**
 * Whose view a response is: callers with the same key are allowed the same things. Content reads
 * don't depend on who the user is, only on what its role allows, so users of one role share bodies.
 */
function callerKey(caller: Caller): string | null {
  if (caller.kind === 'public') return 'public';
  if (caller.kind === 'api-token' && caller.token) return `token:${caller.token.id}`;
  if (caller.kind === 'user' && caller.roleId !== undefined) return `role:${caller.roleId}`;
  return null;
}

const uncached = (services: Services): CachedRead => ({ hit: undefined, serve: (reply, read) => serveRead(services, reply, read) });

/**
 * Tables every response depends on besides those its statements name: what the caller may see
 * (roles, permissions, API tokens) and the default locale are read once and kept in memory.
 */
const ALWAYS: readonly string[] = ['up_roles', 'up_permissions', 'folio_api_tokens', 'i18n_locale', 'folio_store'];

const clocks = new WeakMap<Database, VersionClock>();
function clockOf(database: Database): VersionClock {
  let c = clocks.get(database);
  if (!c) clocks.set(database, (c = new VersionClock(database)));
  return c;
}

/**
 * The counters a body depends on: those of the tables its statements named (and ALWAYS), as read
 * before the read began — provided none of them moved by the time it ended, so the body is what
 * those tables held throughout. null when that can't be said: no counters, a volatile table, a write
 * to one of its tables during the read.
 */
function dependencies(before: TableState, after: TableState, reads: RecordedReads): Dependencies | null {
  const deps: (readonly [string, number, (readonly number[])?])[] = [];
  for (const t of new Set([...reads.tables, ...reads.keys.keys(), ...ALWAYS])) {
    if (VOLATILE_TABLES.has(t)) return null;
    const v = before.version(t);
    if (after.version(t) !== v) return null;
    const buckets = reads.tables.has(t) ? undefined : reads.keys.get(t);
    deps.push(buckets === undefined ? [t, v] : [t, v, [...buckets]]);
  }
  return deps;
}

export async function cachedRead(services: Services, req: FastifyRequest, caller: Caller): Promise<CachedRead> {
  const cache = services.responseCache;
  const who = callerKey(caller);
  // a long URL is not worth its memory: every character of a key is kept (response-cache.ts)
  if (cache === null || who === null || !cacheableUrl(req.url)) return uncached(services);
  const format = req.headers['strapi-response-format'] === 'v4' ? 'v4' : '';
  // the default locale a URL without one reads: a running server takes a new one when it reads the locales again
  const key = `${who}\n${format}\n${services.locales.defaultCode()}\n${req.url}`;
  // the mark authentication read when the request began: read before any of its data, as a lookup needs
  const { database } = services;
  const mark = caller.mark ?? (await database.changeMark());
  const hit = cache.needsVersions(key, mark) ? cache.get(key, mark, await clockOf(database).after(mark)) : cache.get(key, mark);
  return {
    hit,
    async serve(reply, read) {
      const versioned = database.tableVersionsActive();
      const before = versioned ? await clockOf(database).after(mark) : undefined;
      const { value, reads, lease } = await readGated(services, reply.raw, read);
      const body = await serializeGated(reply.raw, () => value, lease);
      try {
        const current = await database.changeMark();
        // the mark still in place: nothing was written during the read, so the counters read before it hold;
        // else they are read again, and the body is kept only if none of its tables' moved
        const deps = before === undefined ? null : dependencies(before, current === mark ? before : await clockOf(database).after(current), reads);
        // without counters (or with a volatile table), a body is kept only when the whole database stood still while it was read
        cache.set(key, mark, deps === null ? current : mark, body, deps);
      } catch (e) {
        lease.release();
        throw e;
      }
      return sendGated(reply, body, lease);
    },
  };
}
