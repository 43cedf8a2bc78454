// Serialized bodies of content reads, reused while nothing they were read from has changed. An entry
// keeps the change mark it was read at (Database.changeMark()) and the counters of the tables its
// statements named (database/table-versions.ts), with the buckets of the keys it read for a table its
// statements read only at some keys (database/table-buckets.ts): while the mark stays put it is served
// as it is; once the mark moved — any write, by this process or, on SQLite and PostgreSQL, by any
// other — it is served only if none of its tables' counters moved, or for a table read at some keys,
// none of those keys' buckets was written since. Authentication and the permission check run before a
// lookup; only the read and its serialization are skipped.

// Memory: the budget counts everything an entry keeps alive, not the bodies alone — distinct long
// URLs with tiny bodies (a filter nobody matches) otherwise hold keys many times the budget (20,000
// 8 KB URLs kept 168 MB while 1.6 MB of bodies were counted). Each entry is charged its key at two
// bytes a character (a string's worst case), its body, and a fixed overhead; URLs longer than
// MAX_CACHED_URL are not cached at all.

import type { TableState } from './version-clock.js';

/** Longer request URLs (path and query) are answered without the cache: real populate/filter URLs stay well below. */
export const MAX_CACHED_URL = 4096;

/**
 * What an entry costs besides its key and body: the Map slot, the entry object, the Buffer object
 * and its backing store's bookkeeping, the mark string. Measured at ~345 bytes on Node 20 (x64);
 * rounded up.
 */
const ENTRY_OVERHEAD = 512;

/**
 * the counters of the tables a body was read from, as they were when it was read, and for a table its
 * statements read only at some keys, those keys' buckets: the body stands while they stand unwritten
 */
export type Dependencies = readonly (readonly [table: string, version: number, buckets?: readonly number[]])[];

/** Whether every table a body depends on is as it was: its counter unmoved, or at least its buckets unwritten. */
function stands(deps: Dependencies, state: TableState): boolean {
  for (const [t, v, buckets] of deps) {
    if (state.version(t) === v) continue;
    if (buckets === undefined || !state.bucketsStandSince(t, v, buckets)) return false;
  }
  return true;
}

interface Entry {
  /** the last change mark the entry was known valid at */
  mark: string;
  /** null: valid only while the mark stays put */
  readonly deps: Dependencies | null;
  /** UTF-8 bytes: a hit is written as is, without encoding the text again */
  readonly body: Buffer;
  /** what the entry is charged against the budget */
  readonly cost: number;
  /** Date.now() past which the entry is not served (Infinity unless limitAge() was called) */
  readonly expires: number;
}

/** Whether a request URL is short enough to be cached. */
export function cacheableUrl(url: string): boolean {
  return url.length <= MAX_CACHED_URL;
}

/**
 * The body as the cache keeps it. A small Buffer is usually a slice of Node's shared 8 KB pool: kept,
 * an 80-byte body would hold the whole slab alive, 100 times what it is charged.
 */
function own(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const copy = Buffer.allocUnsafeSlow(body.length);
  body.copy(copy);
  return copy;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private maxAgeMs = Infinity;

  constructor(private readonly maxBytes: number) {}

  /**
   * Serves no entry older than `ms` (the shortest limit asked for wins): for bodies that may hold
   * URLs that stop working, such as a private bucket's signed ones.
   */
  limitAge(ms: number): void {
    this.maxAgeMs = Math.min(this.maxAgeMs, Math.max(0, ms));
  }

  /** Whether judging the entry under `key` at `mark` needs the table counters (it was stored at another mark). */
  needsVersions(key: string, mark: string): boolean {
    const e = this.entries.get(key);
    return e !== undefined && e.mark !== mark && e.deps !== null;
  }

  /**
   * The body stored under `key`, when still valid at `mark`: stored at that very mark, or — given
   * counters read after `mark` — nothing it was read from changed since.
   */
  get(key: string, mark: string, state?: TableState): Buffer | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    const unchanged = e.mark === mark || (state !== undefined && e.deps !== null && stands(e.deps, state));
    if (!unchanged || (e.expires !== Infinity && e.expires <= Date.now())) {
      this.remove(key, e);
      return undefined;
    }
    e.mark = mark;
    // most recently used last: eviction takes from the front
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.body;
  }

  /** Stores a body read at `mark`; skipped when the data moved while it was being read (`current` differs). */
  set(key: string, mark: string, current: string, body: Buffer, deps: Dependencies | null = null): void {
    const cost = key.length * 2 + body.length + ENTRY_OVERHEAD + (deps?.reduce((n, d) => n + 64 + (d[2]?.length ?? 0) * 8, 0) ?? 0);
    if (mark !== current || cost > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const expires = this.maxAgeMs === Infinity ? Infinity : Date.now() + this.maxAgeMs;
    this.entries.set(key, { mark, deps, body: own(body), cost, expires });
    this.bytes += cost;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(k, e);
    }
  }

  private remove(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.cost;
  }
}
