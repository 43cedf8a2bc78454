// What hangs off a row besides its scalars: components (with their own children), relation links
// it owns and media links. Deleting and copying a row's children is one walk over the model: the
// component links are read first, a level at a time (component-tree.ts), copies of component rows
// are made before the links that need their new ids (copy-rows.ts), and the other writes go together
// (write-batch.ts).
import { sql, type SqlBool } from 'kysely';
import { MEDIA_LINK_TABLE, type Component, type ContentType, type Model } from '../../schema/types.js';
import { copyRows, type RowToCopy } from './copy-rows.js';
import { holdCopiedTargets } from './copied-targets.js';
import { hasMedia, ownedRelations } from './owned-links.js';
import { insertsOf, type Store } from './rows.js';
import { readComponentTree, type ComponentTree } from './component-tree.js';
import type { CmpLink } from './new-rows.js';
import { runWrites, type Write } from './write-batch.js';
import { inChunks } from '../../database/in-list.js';

type Schema = ContentType | Component;

/** Queues the deletes of the component rows the links name, with everything that hangs off them. */
function collectComponentDeletes(s: Store, model: Model, tree: ComponentTree, links: readonly CmpLink[], out: Write[]): void {
  const byType = new Map<string, number[]>();
  for (const l of links) {
    let list = byType.get(l.component_type);
    if (!list) byType.set(l.component_type, (list = []));
    list.push(l.cmp_id);
  }
  for (const [uid, ids] of byType) {
    const comp = model.components.get(uid);
    if (!comp) continue;
    collectDeletes(s, model, tree, comp, ids, out);
    for (const part of inChunks(ids)) out.push(s.tx.deleteFrom(comp.table).where('id', 'in', part));
  }
}

/** Queues the deletes of the components, owned relation links and media links of rows. */
function collectDeletes(s: Store, model: Model, tree: ComponentTree, schema: Schema, entityIds: readonly number[], out: Write[]): void {
  if (entityIds.length === 0) return;
  const links = entityIds.flatMap((id) => tree.links(schema, id));
  collectComponentDeletes(s, model, tree, links, out);
  for (const ids of inChunks(entityIds)) {
    if (links.length) out.push(s.tx.deleteFrom(schema.componentTable).where('entity_id', 'in', ids));
    for (const { linkTable } of ownedRelations(schema)) out.push(s.tx.deleteFrom(linkTable).where('source_id', 'in', ids));
    out.push(s.tx.deleteFrom(MEDIA_LINK_TABLE).where('related_id', 'in', ids).where('related_type', '=', schema.uid));
  }
}

/** Deletes rows of a schema's own table together with everything that hangs off them. */
export async function deleteRows(s: Store, model: Model, schema: Schema, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const writes: Write[] = [];
  collectDeletes(s, model, await readComponentTree(s, model, schema, ids), schema, ids, writes);
  writes.push(s.tx.deleteFrom(schema.table).where('id', 'in', [...ids]));
  await runWrites(s, writes);
}

/** The component rows under row `fromId`, all levels deep, parents before their children. */
function rowsToCopy(model: Model, tree: ComponentTree, schema: Schema, fromId: number, only: ReadonlySet<string> | undefined, out: RowToCopy[]): void {
  for (const l of tree.links(schema, fromId)) {
    if (only && !only.has(l.field)) continue;
    const comp = model.components.get(l.component_type);
    if (!comp) continue;
    out.push({ comp, id: l.cmp_id });
    rowsToCopy(model, tree, comp, l.cmp_id, undefined, out);
  }
}

/** What copying a row's children works with: the store, the model, the rows' component tree and the queued writes. */
interface CopyContext {
  readonly s: Store;
  readonly model: Model;
  readonly tree: ComponentTree;
  readonly out: Write[];
  /** the rows copied from whose link targets this write holds already */
  readonly held?: Set<string>;
}

/** A row whose children go to another row of the same schema; `only`: just these attributes'. */
interface RowMove {
  readonly schema: Schema;
  readonly fromId: number;
  readonly toId: number;
  readonly only?: ReadonlySet<string> | undefined;
}

/** The rows a copy moves children between, by schema, and the component links of the copies, by table. */
interface Moves {
  readonly bySchema: Map<Schema, RowMove[]>;
  readonly cmpLinks: Map<string, Record<string, unknown>[]>;
  /** every move, a row's children before it, as copying them row by row went */
  readonly walk: RowMove[];
}

/** Gathers the moves of row `fromId` to row `toId` and, all levels down, of its components to their copies. */
function gatherMoves(c: CopyContext, m: RowMove, copies: Map<string, number | null>, moves: Moves): void {
  const { model, tree } = c;
  const { schema, fromId, toId, only } = m;
  for (const l of tree.links(schema, fromId)) {
    if (only && !only.has(l.field)) continue;
    const comp = model.components.get(l.component_type);
    if (!comp) continue;
    const newId = copies.get(`${comp.table}#${l.cmp_id}`);
    if (newId === null || newId === undefined) continue;
    gatherMoves(c, { schema: comp, fromId: l.cmp_id, toId: newId }, copies, moves);
    let links = moves.cmpLinks.get(schema.componentTable);
    if (!links) moves.cmpLinks.set(schema.componentTable, (links = []));
    links.push({ entity_id: toId, cmp_id: newId, component_type: l.component_type, field: l.field, ord: l.ord });
  }
  let sameSchema = moves.bySchema.get(schema);
  if (!sameSchema) moves.bySchema.set(schema, (sameSchema = []));
  sameSchema.push(m);
  moves.walk.push(m);
}

// rows one `case` names at most: MySQL and SQLite try a row's branches one by one, so a statement's cost grows
// with the square of its branches (10,000 took MariaDB 0.5 s for one column)
const CASE_BRANCHES = 1000;

/**
 * The media links of the moved rows, copied in the order of the walk (a row's children before it), as
 * copying them row by row inserted them: a file's `related` lists rows linking it at the same place in
 * the order their links were inserted.
 */
function copyMedia(s: Store, moves: readonly RowMove[], out: Write[]): void {
  const withMedia = moves.filter((m) => hasMedia(m.schema, m.only));
  for (const part of inChunks(withMedia, CASE_BRANCHES)) {
    const isRow = (m: RowMove) => sql<SqlBool>`(${sql.ref('related_type')} = ${m.schema.uid} and ${sql.ref('related_id')} = ${sql.lit(m.fromId)})`;
    const branches = (value: (m: RowMove, i: number) => number) =>
      sql.join(
        part.map((m, i) => sql`when ${isRow(m)} then ${sql.lit(value(m, i))}`),
        sql` `,
      );
    const rows = part.map((m) => {
      if (!m.only) return isRow(m);
      // `only`: just these attributes' links
      const fields = m.only.size ? [...m.only] : [''];
      return sql<SqlBool>`(${isRow(m)} and ${sql.ref('field')} in (${sql.join(fields)}))`;
    });
    const media = s.tx
      .selectFrom(MEDIA_LINK_TABLE)
      .select(['file_id', sql<number>`case ${branches((m) => m.toId)} end`.as('related_id'), 'related_type', 'field', 'ord'])
      .where(sql<SqlBool>`${sql.join(rows, sql` or `)}`)
      .orderBy(sql`case ${branches((_m, i) => i)} end`)
      .orderBy('id');
    out.push(s.tx.insertInto(MEDIA_LINK_TABLE).columns(['file_id', 'related_id', 'related_type', 'field', 'ord']).expression(media));
  }
}

/** `case <column> when <from> then <to> … end`: the new owner of each copied link (ids this write computed, as literals) */
function newOwner(column: string, part: readonly RowMove[]) {
  return sql<number>`case ${sql.ref(column)} ${sql.join(
    part.map((m) => sql`when ${sql.lit(m.fromId)} then ${sql.lit(m.toId)}`),
    sql` `,
  )} end`;
}

/**
 * Queues the links that point each moved row at the copies of its components, relations and media: one
 * INSERT … SELECT per link table for all the rows of a schema (a statement per component row made a
 * publish of a 40-entry zone 80 statements on SQLite and MySQL).
 */
function collectLinks(c: CopyContext, m: RowMove, copies: Map<string, number | null>): void {
  const { s, out } = c;
  const moves: Moves = { bySchema: new Map(), cmpLinks: new Map(), walk: [] };
  gatherMoves(c, m, copies, moves);
  for (const [table, links] of moves.cmpLinks) out.push(...insertsOf(s, table, links));
  const cols = ['target_document_id', 'target_locale', 'target_status', 'ord', 'inv_ord'] as const;
  for (const [schema, rows] of moves.bySchema) {
    // `only` is given for the top row alone, which is the one row of its schema here
    const only = rows[0]!.only;
    for (const part of inChunks(rows, CASE_BRANCHES)) {
      const fromIds = part.map((r) => r.fromId);
      for (const { linkTable: table } of ownedRelations(schema, only)) {
        out.push(
          s.tx
            .insertInto(table)
            .columns(['source_id', ...cols])
            .expression(
              s.tx
                .selectFrom(table)
                .select([newOwner('source_id', part).as('source_id'), ...cols])
                .where('source_id', 'in', fromIds),
            ),
        );
      }
    }
  }
  copyMedia(s, moves.walk, out);
}

/** Creates copies of the row's components (all at once where the dialect can) and queues the link copies. */
async function collectCopies(c: CopyContext, m: RowMove): Promise<void> {
  const rows: RowToCopy[] = [];
  rowsToCopy(c.model, c.tree, m.schema, m.fromId, m.only, rows);
  // once per row copied from: one row's children copied to several (its other locales) are held once
  const from = `${m.schema.uid}#${m.fromId}`;
  if (!c.held?.has(from)) await holdCopiedTargets(c.s, c.model, [{ schema: m.schema, id: m.fromId, only: m.only }, ...rows.map((r) => ({ schema: r.comp, id: r.id }))]);
  c.held?.add(from);
  const ids = await copyRows(c.s, rows);
  const copies = new Map(rows.map((r, i) => [`${r.comp.table}#${r.id}`, ids[i]!] as const));
  collectLinks(c, m, copies);
}

/**
 * Replaces the children of row `toId` with copies of those of row `fromId` (publishing over a published
 * row); `alongside`: writes independent of these that may go in the same batch.
 */
export async function replaceChildren(s: Store, model: Model, schema: Schema, fromId: number, toId: number, alongside: readonly Write[] = []): Promise<void> {
  const writes: Write[] = [...alongside];
  // one read per level for both rows' components
  const tree = await readComponentTree(s, model, schema, [fromId, toId]);
  // the deletes come first: where writes run one by one, they must not remove the new links
  collectDeletes(s, model, tree, schema, [toId], writes);
  await collectCopies({ s, model, tree, out: writes }, { schema, fromId, toId });
  await runWrites(s, writes);
}

/**
 * Copies the children of row `fromId` onto row `toId` (components get new rows); with `only`, just the
 * components, relations and media of those attributes.
 */
export async function copyChildren(s: Store, model: Model, schema: Schema, fromId: number, toId: number, only?: ReadonlySet<string>): Promise<void> {
  const writes: Write[] = [];
  await collectCopies({ s, model, tree: await readComponentTree(s, model, schema, [fromId]), out: writes }, { schema, fromId, toId, only });
  await runWrites(s, writes);
}

/**
 * Replaces the components of the attributes `fields` on rows `toIds` with copies of those of row `fromId`
 * (a non-localized component written in one locale, given to the document's other locales).
 */
export async function replaceComponentFields(s: Store, model: Model, schema: Schema, fromId: number, toIds: readonly number[], fields: ReadonlySet<string>): Promise<void> {
  if (toIds.length === 0 || fields.size === 0) return;
  const tree = await readComponentTree(s, model, schema, [fromId, ...toIds]);
  const writes: Write[] = [];
  // the deletes come first: where writes run one by one, they must not remove the new links
  const replaced = toIds.flatMap((id) => tree.links(schema, id).filter((l) => fields.has(l.field)));
  collectComponentDeletes(s, model, tree, replaced, writes);
  writes.push(
    s.tx
      .deleteFrom(schema.componentTable)
      .where('entity_id', 'in', [...toIds])
      .where('field', 'in', [...fields]),
  );
  const held = new Set<string>();
  for (const toId of toIds) await collectCopies({ s, model, tree, out: writes, held }, { schema, fromId, toId, only: fields });
  await runWrites(s, writes);
}
