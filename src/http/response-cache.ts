// Serialized bodies of content reads, reused while the database hasn't changed. An entry is valid
// only for the exact change number it was read at (Database.changes()), so any write — by this
// process or, on SQLite, by any other — retires every entry at once. Authentication and the
// permission check run before a lookup; only the read and its serialization are skipped.

interface Entry {
  readonly changes: number;
  /** UTF-8 bytes: a hit is written as is, without encoding the text again */
  readonly body: Buffer;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The body stored under `key` at exactly `changes`, or undefined. */
  get(key: string, changes: number): Buffer | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.changes !== changes) {
      this.remove(key, e);
      return undefined;
    }
    // most recently used last: eviction takes from the front
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.body;
  }

  /** Stores a body read at `changes`; skipped when the data moved while it was being read. */
  set(key: string, changes: number, current: number, body: Buffer): void {
    if (changes !== current || body.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, { changes, body });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(k, e);
    }
  }

  private remove(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
  }
}
