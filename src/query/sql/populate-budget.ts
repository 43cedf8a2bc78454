// How much one read may populate. Without a bound, a few nested to-many populates multiply into
// millions of entries: seconds of CPU, gigabytes of memory, and finally a response too long for a
// JavaScript string. Two things are counted: rows loaded (no statement may return more than one
// row past the whole budget, so an excess is seen without loading it all) and entries in the
// response — a row loaded once can appear under many parents, and each appearance is serialized.
import { ValidationError } from '../../errors.js';

export const MAX_POPULATED_ROWS = 25_000;
export const MAX_POPULATED_ENTRIES = 100_000;

function tooLarge(what: string, max: number): ValidationError {
  return new ValidationError(`This populate would ${what} more than ${max} related entries in one request: narrow it with pagination, fields, filters or fewer populated levels`, {
    source: 'query',
    param: 'populate',
  });
}

export class PopulateBudget {
  private left: number;
  /** entries in the response under each populated object, itself included */
  private readonly weights = new WeakMap<object, number>();
  private entries = 0;

  constructor(
    private readonly max: number = MAX_POPULATED_ROWS,
    private readonly maxEntries: number = MAX_POPULATED_ENTRIES,
  ) {
    this.left = max;
  }

  /**
   * The LIMIT for every populate statement: one row past the whole budget, so no statement loads much
   * more than the budget and an excess is seen. The same number each time: it is written into the SQL
   * as a literal (SQLite runs `limit ?` several times slower than `limit 25001` on small reads, and
   * one text per statement keeps the prepared-statement cache warm).
   */
  limit(): number {
    return this.max + 1;
  }

  /** Counts rows a statement returned; throws once more than the budget were asked for. */
  take(rows: number): void {
    this.left -= rows;
    if (this.left < 0) throw tooLarge('load', this.max);
  }

  private weightOf(v: unknown): number {
    return typeof v === 'object' && v !== null ? (this.weights.get(v) ?? 1) : 0;
  }

  /** Records that `parent` now holds `value` (an entry, a list of them, or null). */
  hold(parent: object, value: unknown): void {
    let w = 0;
    if (Array.isArray(value)) for (const v of value) w += this.weightOf(v);
    else w = this.weightOf(value);
    if (w === 0) return;
    const total = this.weightOf(parent) + w;
    if (total > this.maxEntries) throw tooLarge('return', this.maxEntries);
    this.weights.set(parent, total);
  }

  /** Counts a top-level document of the response (after its populates were held). */
  count(root: object): void {
    this.entries += this.weightOf(root);
    if (this.entries > this.maxEntries) throw tooLarge('return', this.maxEntries);
  }
}
