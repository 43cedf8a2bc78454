// The media a populate level reads, in two statements whatever the number of media attributes: their
// links (one UNION ALL part per attribute), then the files those links name. populate=* on an article
// (cover, gallery) read each attribute's links and files on their own: four statements, now two.
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { ref } from './scope.js';
import { runTemplate } from './statement-template.js';
import type { ReadContext, Row } from './find.js';
import { TurnBatches } from './turn-batch.js';
import { rowsByPart, unionOfLinks } from './link-union.js';

interface WantedLinks {
  /** the uid of the parents' schema, as files_related_mph names it */
  readonly relatedType: string;
  readonly field: string;
  readonly parentIds: readonly number[];
}

const linkBatches = new TurnBatches<ReadContext, WantedLinks, Row[]>(runLinks, (w) => w.parentIds.length);

/** `{__src, __file}` of each file link of the parents' media attribute `field`, in link order. */
export function readMediaLinks(ctx: ReadContext, relatedType: string, field: string, parentIds: readonly number[]): Promise<Row[]> {
  return linkBatches.ask(ctx, { relatedType, field, parentIds });
}

async function runLinks(ctx: ReadContext, wanted: readonly WantedLinks[]): Promise<Row[][]> {
  const db = ctx.database.db;
  const limit = ctx.budget?.limit();
  const key = `media links\u0000${wanted.length}\u0000${limit ?? ''}`;
  const values = wanted.flatMap((w) => [w.parentIds, w.relatedType, w.field] as const);
  const parentIds = wanted.flatMap((w) => w.parentIds);
  const rows = (await runTemplate(
    ctx.model,
    ctx.database,
    key,
    values,
    (...v) => {
      const part = (i: number): SelectQueryBuilder<never, never, Row> =>
        db
          .selectFrom('files_related_mph as m')
          .select([sql.lit(i).as('__part'), 'm.related_id as __src', 'm.file_id as __file', 'm.ord as __ord', 'm.id as __id'])
          .where(ctx.database.dialect.oneOf(ref('m', 'related_id'), v[3 * i] as readonly number[], 'integer'))
          .where(sql<SqlBool>`${ref('m', 'related_type')} = ${v[3 * i + 1]}`)
          .where(sql<SqlBool>`${ref('m', 'field')} = ${v[3 * i + 2]}`) as never;
      return unionOfLinks(
        wanted.map((_, i) => part(i)),
        limit,
      );
    },
    { before: [{ table: 'files_related_mph', column: 'related_id', values: parentIds, occurrences: wanted.length }] },
  )) as Row[];
  ctx.budget?.take(rows.length);
  return rowsByPart(rows, wanted.length);
}

interface WantedFiles {
  readonly table: string;
  /** the file columns selected (`t.<column>`): asks with other columns go in a statement of their own */
  readonly columns: readonly string[];
  readonly fileIds: readonly number[];
}

const fileBatches = new TurnBatches<ReadContext, WantedFiles, Row[]>(runFiles);

/** the rows of the files `fileIds` (each once), with `columns` */
export function readFiles(ctx: ReadContext, table: string, columns: readonly string[], fileIds: readonly number[]): Promise<Row[]> {
  return fileBatches.ask(ctx, { table, columns, fileIds });
}

async function runFiles(ctx: ReadContext, wanted: readonly WantedFiles[]): Promise<Row[][]> {
  const byColumns = new Map<string, WantedFiles[]>();
  for (const w of wanted) {
    const k = `${w.table}\u0000${w.columns.join(',')}`;
    const group = byColumns.get(k);
    if (group) group.push(w);
    else byColumns.set(k, [w]);
  }
  const rowsOf = new Map<WantedFiles, Row[]>();
  await Promise.all(
    [...byColumns.values()].map(async (group) => {
      const { table, columns } = group[0]!;
      const ids = [...new Set(group.flatMap((w) => w.fileIds))];
      const rows = (await runTemplate(ctx.model, ctx.database, `media files\u0000${table}\u0000${columns.join(',')}`, [ids] as const, (idList) =>
        ctx.database.db
          .selectFrom(`${table} as t`)
          .select([...columns])
          .where(ctx.database.dialect.oneOf(ref('t', 'id'), idList, 'integer')),
      )) as Row[];
      if (group.length === 1) rowsOf.set(group[0]!, rows);
      else
        for (const w of group) {
          const mine = new Set(w.fileIds);
          rowsOf.set(
            w,
            rows.filter((r) => mine.has(Number(r['id']))),
          );
        }
    }),
  );
  return wanted.map((w) => rowsOf.get(w)!);
}
