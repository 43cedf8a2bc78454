// Serialized bodies of content reads, reused while the database hasn't changed. An entry is valid
// only for the exact change mark it was read at (Database.changeMark()), so any write — by this
// process or, on SQLite and PostgreSQL, by any other — retires every entry at once. Authentication and the
// permission check run before a lookup; only the read and its serialization are skipped.

interface Entry {
  readonly mark: string;
  /** UTF-8 bytes: a hit is written as is, without encoding the text again */
  readonly body: Buffer;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The body stored under `key` at exactly `mark`, or undefined. */
  get(key: string, mark: string): Buffer | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.mark !== mark) {
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
    if (mark !== current || body.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, { mark, body });
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
