// The relation links a populate level reads, in one statement: every owning relation without a where
// or sort of its own asks for its links as the level starts, all in the same turn, and they go out as
// one UNION ALL. On PostgreSQL each statement costs a round trip and a quarter of a millisecond of CPU on
// each side; populate=* on an article named five link tables, five statements.
import { sql, type SelectQueryBuilder } from 'kysely';
import { ref } from './scope.js';
import { runTemplate } from './statement-template.js';
import type { ReadContext, Row } from './find.js';
import { TurnBatches } from './turn-batch.js';
import { rowsByPart, unionOfLinks } from './link-union.js';

interface Wanted {
  readonly table: string;
  readonly parentIds: readonly number[];
}

const batches = new TurnBatches<ReadContext, Wanted, Row[]>(run, (w) => w.parentIds.length);

/** `{__src, __doc}` of each link from the parent rows `parentIds` in `table`, in link order. */
export function readLinks(ctx: ReadContext, table: string, parentIds: readonly number[]): Promise<Row[]> {
  return batches.ask(ctx, { table, parentIds });
}

async function run(ctx: ReadContext, wanted: readonly Wanted[]): Promise<Row[][]> {
  const db = ctx.database.db;
  const limit = ctx.budget?.limit();
  const key = `relation links\u0000${wanted.map((w) => w.table).join('\u0000')}\u0000${limit ?? ''}`;
  const rows = (await runTemplate(
    ctx.model,
    ctx.database,
    key,
    wanted.map((w) => w.parentIds),
    (...lists) => {
      const part = (i: number): SelectQueryBuilder<never, never, Row> =>
        db
          .selectFrom(`${wanted[i]!.table} as l`)
          .select([sql.lit(i).as('__part'), 'l.source_id as __src', 'l.target_document_id as __doc', 'l.ord as __ord', 'l.id as __id'])
          .where(ctx.database.dialect.oneOf(ref('l', 'source_id'), lists[i] as readonly number[], 'integer')) as never;
      return unionOfLinks(
        wanted.map((_, i) => part(i)),
        limit,
      );
    },
    { before: readKeys(wanted) },
  )) as Row[];
  ctx.budget?.take(rows.length);
  return rowsByPart(rows, wanted.length);
}

/** each table's keys for a recording read: the parents asked for, over every part that names it */
function readKeys(wanted: readonly Wanted[]): { table: string; column: string; values: number[]; occurrences: number }[] {
  const byTable = new Map<string, { table: string; column: string; values: number[]; occurrences: number }>();
  for (const w of wanted) {
    const k = byTable.get(w.table);
    if (k) {
      k.values.push(...w.parentIds);
      k.occurrences++;
    } else byTable.set(w.table, { table: w.table, column: 'source_id', values: [...w.parentIds], occurrences: 1 });
  }
  return [...byTable.values()];
}
