// How much one read may populate. Without a bound, a few nested to-many populates multiply into
// millions of entries: seconds of CPU, gigabytes of memory, and finally a response too long for a
// JavaScript string. Two things are counted: rows loaded (no statement may return more than one
// row past the whole budget, so an excess is seen without loading it all) and entries in the
// response — a row loaded once can appear under many parents, and each appearance is serialized —
// both as a number and as an estimate of their text: 100,000 entries of long articles were 112 MB
// of JSON from one anonymous request.
import { ValidationError } from '../../errors.js';
import { HeavyRead, type ReadLease } from '../heavy-reads.js';

export const MAX_POPULATED_ROWS = 25_000;
export const MAX_POPULATED_ENTRIES = 100_000;
/** of the populated entries' estimated text (ownBytes; JSON values apart) */
export const MAX_POPULATED_BYTES = 32 * 1024 * 1024;

/** An entry's own text as JSON, roughly: its string values, and a little per field (for…in: no arrays made per entry). */
function ownBytes(v: object): number {
  const o = v as Record<string, unknown>;
  let n = 2;
  for (const k in o) {
    const x = o[k];
    n += typeof x === 'string' ? x.length + 16 : 16;
  }
  return n;
}

function tooLarge(what: string, max: number | string): ValidationError {
  return new ValidationError(`This populate would ${what} more than ${max} related entries in one request: narrow it with pagination, fields, filters or fewer populated levels`, {
    source: 'query',
    param: 'populate',
  });
}

const megabytes = (n: number): string => `${Math.round(n / (1024 * 1024))} MB of`;

export class PopulateBudget {
  private left: number;
  /** entries in the response under each populated object, itself included */
  private readonly weights = new WeakMap<object, number>();
  /** the estimated text under each populated object, its own included */
  private readonly sizes = new WeakMap<object, number>();
  private entries = 0;
  private bytes = 0;
  /** what count() counted of each top-level document so far */
  private readonly counted = new WeakMap<object, { entries: number; bytes: number }>();
  /** the bytes settle() handed to the lease so far */
  private settled = 0;

  /**
   * `lease`: the read's standing at the heavy-read gate (heavy-reads.ts); without one (a write's check
   * that its answer stays within the budget, http/write-read-back.ts) the whole budget is the read's at once.
   */
  constructor(
    private readonly lease?: ReadLease,
    private readonly max: number = MAX_POPULATED_ROWS,
    private readonly maxEntries: number = MAX_POPULATED_ENTRIES,
    private readonly maxBytes: number = MAX_POPULATED_BYTES,
  ) {
    this.left = max;
  }

  /** a light read may load this many rows; null when the read may load the whole budget */
  private lightRows(): number | null {
    return this.lease && !this.lease.heavy && this.lease.lightRows < this.max ? this.lease.lightRows : null;
  }

  /**
   * The LIMIT for every populate statement: one row past the whole budget, so no statement loads much
   * more than the budget and an excess is seen. The same number each time: it is written into the SQL
   * as a literal (SQLite runs `limit ?` several times slower than `limit 25001` on small reads, and
   * few texts per statement keep the prepared-statement cache warm). A light read's statements stop one
   * row past the light allowance, as that is where it stops to wait for a heavy slot: two texts per
   * statement, the light one and the heavy one.
   */
  limit(): number {
    return (this.lightRows() ?? this.max) + 1;
  }

  /** Counts rows a statement returned; throws once more than the budget were asked for. */
  take(rows: number): void {
    this.left -= rows;
    if (this.left < 0) throw tooLarge('load', this.max);
    const light = this.lightRows();
    if (light !== null && this.max - this.left > light) throw new HeavyRead();
  }

  /** Hands the read's estimated answer size to its lease, once every top-level document was counted (what was added since, when again). */
  settle(): void {
    this.lease?.addBytes(this.bytes - this.settled);
    this.settled = this.bytes;
  }

  private weightOf(v: unknown): number {
    return typeof v === 'object' && v !== null ? (this.weights.get(v) ?? 1) : 0;
  }

  private sizeOf(v: unknown): number {
    return typeof v === 'object' && v !== null ? (this.sizes.get(v) ?? ownBytes(v)) : 0;
  }

  /** Records that `parent` now holds `value` (an entry, a list of them, or null). */
  hold(parent: object, value: unknown): void {
    let w = 0;
    let size = 0;
    if (Array.isArray(value)) {
      for (const v of value) {
        w += this.weightOf(v);
        size += this.sizeOf(v);
      }
    } else {
      w = this.weightOf(value);
      size = this.sizeOf(value);
    }
    if (w === 0) return;
    const total = this.weightOf(parent) + w;
    if (total > this.maxEntries) throw tooLarge('return', this.maxEntries);
    const bytes = this.sizeOf(parent) + size;
    if (bytes > this.maxBytes) throw tooLarge('return', megabytes(this.maxBytes));
    this.weights.set(parent, total);
    this.sizes.set(parent, bytes);
  }

  /**
   * Counts a top-level document of the response (after its populates were held); counted again after
   * more was held under it (a file's `related` after its populated attributes), only what was added.
   */
  count(root: object): void {
    const before = this.counted.get(root);
    const entries = this.weightOf(root);
    // the related entries' text only: the document's own is the page's, bounded by its size
    const held = this.sizes.get(root);
    const bytes = held === undefined ? 0 : Math.max(0, held - ownBytes(root));
    this.counted.set(root, { entries, bytes });
    this.entries += entries - (before?.entries ?? 0);
    if (this.entries > this.maxEntries) throw tooLarge('return', this.maxEntries);
    this.bytes += bytes - (before?.bytes ?? 0);
    if (this.bytes > this.maxBytes) throw tooLarge('return', megabytes(this.maxBytes));
  }
}
