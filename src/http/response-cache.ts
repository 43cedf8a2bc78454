// Serialized bodies of content reads, reused while the database hasn't changed. An entry is valid
// only for the exact change mark it was read at (Database.changeMark()), so any write — by this
// process or, on SQLite and PostgreSQL, by any other — retires every entry at once. Authentication and the
// permission check run before a lookup; only the read and its serialization are skipped.

// Memory: the budget counts everything an entry keeps alive, not the bodies alone — distinct long
// URLs with tiny bodies (a filter nobody matches) otherwise hold keys many times the budget (20,000
// 8 KB URLs kept 168 MB while 1.6 MB of bodies were counted). Each entry is charged its key at two
// bytes a character (a string's worst case), its body, and a fixed overhead; URLs longer than
// MAX_CACHED_URL are not cached at all.

/** Longer request URLs (path and query) are answered without the cache: real populate/filter URLs stay well below. */
export const MAX_CACHED_URL = 4096;

/**
 * What an entry costs besides its key and body: the Map slot, the entry object, the Buffer object
 * and its backing store's bookkeeping, the mark string. Measured at ~345 bytes on Node 20 (x64);
 * rounded up.
 */
const ENTRY_OVERHEAD = 512;

interface Entry {
  readonly mark: string;
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

  /** The body stored under `key` at exactly `mark`, or undefined. */
  get(key: string, mark: string): Buffer | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.mark !== mark || (e.expires !== Infinity && e.expires <= Date.now())) {
      this.remove(key, e);
      return undefined;
    }
    // most recently used last: eviction takes from the front
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.body;
  }

  /** Stores a body read at `mark`; skipped when the data moved while it was being read (`current` differs). */
  set(key: string, mark: string, current: string, body: Buffer): void {
    const cost = key.length * 2 + body.length + ENTRY_OVERHEAD;
    if (mark !== current || cost > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const expires = this.maxAgeMs === Infinity ? Infinity : Date.now() + this.maxAgeMs;
    this.entries.set(key, { mark, body: own(body), cost, expires });
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
