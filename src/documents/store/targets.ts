// Whether the documents a relation write names exist in the version each link will show, and — for
// the side that stores the links — where a new link to each of them goes in the target's own list.
import { sql } from 'kysely';
import { ValidationError } from '../../errors.js';
import type { ContentType } from '../../schema/types.js';
import type { Store } from './rows.js';

export interface Entry {
  doc: string;
  locale: string | null;
  status: string | null;
}

export interface TargetContext {
  readonly store: Store;
  readonly defaultLocale: string;
  /** targets this write already found (uid|document|locale|status): one write names an author twice, say */
  readonly found: Set<string>;
}

export function notFound(doc: string, locale: string | null): ValidationError {
  return new ValidationError(`Document with id "${doc}", locale "${locale ?? 'null'}" not found`);
}

export const keyOf = (target: ContentType, e: Entry): string => `${target.uid}|${e.doc}|${e.locale ?? ''}|${e.status ?? ''}`;

/** The locale and status a target row must have to be the version an entry links to. */
function wanted(ctx: TargetContext, target: ContentType, e: Entry): { locale: string | null; published: boolean } {
  return { locale: target.localized ? (e.locale ?? ctx.defaultLocale) : null, published: target.draftAndPublish ? (e.status ?? 'draft') === 'published' : true };
}

/** Throws the 400 of the first entry whose target doesn't exist; remembers the ones found. */
function settle(ctx: TargetContext, target: ContentType, entries: readonly Entry[], exists: (e: Entry, i: number) => boolean): void {
  entries.forEach((e, i) => {
    if (!exists(e, i)) throw notFound(e.doc, wanted(ctx, target, e).locale);
    ctx.found.add(keyOf(target, e));
  });
}

export async function checkExists(ctx: TargetContext, target: ContentType, entries: readonly Entry[]): Promise<void> {
  const unknown = entries.filter((e) => !ctx.found.has(keyOf(target, e)));
  if (unknown.length === 0) return;
  const docs = [...new Set(unknown.map((e) => e.doc))];
  const rows = await ctx.store.tx.selectFrom(target.table).select(['document_id', 'locale', 'published_at']).where('document_id', 'in', docs).execute();
  const have = new Set(rows.map((r) => `${String(r.document_id)}|${target.localized ? String(r.locale) : ''}|${r.published_at !== null}`));
  settle(ctx, target, unknown, (e) => {
    const w = wanted(ctx, target, e);
    return have.has(`${e.doc}|${w.locale ?? ''}|${w.published}`);
  });
}

// SQLite allows at most 500 terms in one compound SELECT
const MAX_UNION_TERMS = 200;

/**
 * checkExists, and in the same statement the largest `inv_ord` each entry's document has in `linkTable`
 * (0 when none): the position after which a new link to it goes.
 */
export async function checkAndPlace(ctx: TargetContext, target: ContentType, linkTable: string, entries: readonly Entry[]): Promise<Map<string, number>> {
  const { present, max } = await lookUpPlaces(ctx, target, linkTable, entries);
  settle(ctx, target, entries, (_e, i) => present.has(i));
  return max;
}

/**
 * Which entries' targets exist in the version each link will show (their places in `entries`; those
 * this write found before count as present), and the largest `inv_ord` each entry's document has in
 * `linkTable` (0 when none). One scalar subquery per entry, so every dialect reads both from an index
 * in a few steps.
 */
export async function lookUpPlaces(
  ctx: TargetContext,
  target: ContentType,
  linkTable: string,
  entries: readonly Entry[],
): Promise<{ present: Set<number>; max: Map<string, number> }> {
  const tx = ctx.store.tx;
  const max = new Map<string, number>();
  const present = new Set<number>();
  if (entries.length === 0) return { present, max };
  const keyRows = ctx.store.dialect.keyRows;
  if (keyRows) {
    // one statement planned once, whatever the number of entries: its two subqueries run for each entry
    // as a branch's would (a union of one branch per entry cost PostgreSQL 12 s of planning for 10,000 links)
    const columns = [
      { name: 'doc', values: entries.map((e) => e.doc), type: 'text' as const },
      { name: 'pub', values: entries.map((e) => (wanted(ctx, target, e).published ? 1 : 0)), type: 'integer' as const },
      { name: 'known', values: entries.map((e) => (ctx.found.has(keyOf(target, e)) ? 1 : 0)), type: 'integer' as const },
      ...(target.localized ? [{ name: 'loc', values: entries.map((e) => wanted(ctx, target, e).locale!), type: 'text' as const }] : []),
    ];
    const sameLocale = target.localized ? sql` and ${sql.ref('locale')} = ${sql.ref('k.loc')}` : sql``;
    const rows = await sql<{ i: unknown; m: unknown; n: unknown }>`select ${sql.ref('k.i')} as "i",
      (select max(${sql.ref('inv_ord')}) from ${sql.table(linkTable)} where ${sql.ref('target_document_id')} = ${sql.ref('k.doc')}) as "m",
      case when ${sql.ref('k.known')} = 1 then 1 else (select count(*) from ${sql.table(target.table)} where ${sql.ref('document_id')} = ${sql.ref('k.doc')}${sameLocale}
        and (case when ${sql.ref('published_at')} is null then 0 else 1 end) = ${sql.ref('k.pub')}) end as "n"
      from ${keyRows('k', columns)}`.execute(tx);
    for (const r of rows.rows) {
      const i = Number(r.i) - 1;
      if (Number(r.n) > 0) present.add(i);
      max.set(entries[i]!.doc, Number(r.m ?? 0));
    }
    return { present, max };
  }
  const branch = (e: Entry, i: number) =>
    tx.selectNoFrom((eb) => {
      const w = wanted(ctx, target, e);
      let version = eb
        .selectFrom(target.table)
        .select(sql<number>`count(*)`.as('n'))
        .where('document_id', '=', e.doc)
        .where('published_at', w.published ? 'is not' : 'is', null);
      if (w.locale !== null) version = version.where('locale', '=', w.locale);
      return [
        sql.lit(i).as('i'),
        eb
          .selectFrom(linkTable)
          .select(sql<number>`max(${sql.ref('inv_ord')})`.as('m'))
          .where('target_document_id', '=', e.doc)
          .as('m'),
        ctx.found.has(keyOf(target, e)) ? sql.lit(1).as('n') : version.as('n'),
      ];
    });
  for (let from = 0; from < entries.length; from += MAX_UNION_TERMS) {
    const chunk = entries.slice(from, from + MAX_UNION_TERMS);
    let query = branch(chunk[0]!, from);
    for (let i = 1; i < chunk.length; i++) query = query.unionAll(branch(chunk[i]!, from + i));
    for (const r of await query.execute()) {
      const i = Number(r.i);
      if (Number(r.n) > 0) present.add(i);
      max.set(entries[i]!.doc, Number(r.m ?? 0));
    }
  }
  return { present, max };
}
