// Loads populated relations, media, components and dynamic zones for a batch of parent rows.
// One statement per populated attribute and level (IN lists over the whole batch), never one per
// document, so the statement count depends on the populate's shape only.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { PopulateMap, PopulateNode } from '../ast.js';
import { FILE_UID, type Component, type ContentType, type RelationAttribute } from '../../schema/types.js';
import { rowShape } from '../../documents/row-shape.js';
import { zoneComponents } from '../../schema/zone.js';
import { signFileUrls } from '../../plugins/upload/sign.js';
import { publicationCondition } from './publication.js';
import { and, isContentType, ownerVersion, ref, statusCondition, targetVersion, type ReadScope } from './scope.js';
import { compileWhere } from './where.js';
import { orderTerms, whereContext, type ReadContext, type Row } from './find.js';

/** A loader's answer: the value of one attribute for each parent id, and the value when none. */
interface Loaded {
  readonly name: string;
  readonly byParent: Map<number, unknown>;
  readonly empty: () => unknown;
}

export interface Parent {
  readonly row: Row;
  readonly out: Record<string, unknown>;
}

type Schema = ContentType | Component;

function ids(parents: readonly Parent[]): number[] {
  return [...new Set(parents.map((p) => Number(p.row['id'])))];
}

function selectColumns(schema: Schema, alias: string, node: PopulateNode): string[] {
  const shape = rowShape(schema, node.fields);
  const base = isContentType(schema) ? ['id', 'document_id', 'published_at', ...(schema.localized ? ['locale'] : [])] : ['id'];
  return [...new Set([...base, ...shape.columns])].map((c) => `${alias}.${c}`);
}

interface Runnable {
  execute(): Promise<unknown[]>;
  limit(n: RawBuilder<number>): { execute(): Promise<unknown[]> };
}

/** Runs a populate statement within the request's budget of populated rows. */
async function within(ctx: ReadContext, q: Runnable): Promise<Row[]> {
  if (!ctx.budget) return await q.execute() as Row[];
  const rows = await q.limit(sql.lit(ctx.budget.limit())).execute() as Row[];
  ctx.budget.take(rows.length);
  return rows;
}

/** Builds child objects from rows, populates them further, and returns them by parent id. */
async function children(ctx: ReadContext, schema: Schema, rows: Row[], node: PopulateNode, nested: PopulateMap, scope: ReadScope): Promise<Map<number, Record<string, unknown>[]>> {
  const shape = rowShape(schema, node.fields);
  const built: Parent[] = rows.map((row) => ({ row, out: shape.build(row) }));
  if (nested.size > 0) await populate(ctx, schema, built, nested, scope);
  const out = new Map<number, Record<string, unknown>[]>();
  built.forEach((b) => {
    const k = Number(b.row['__src']);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(b.out);
  });
  return out;
}

async function loadRelation(ctx: ReadContext, schema: Schema, attr: RelationAttribute, parents: readonly Parent[], node: PopulateNode, scope: ReadScope): Promise<Loaded> {
  const target = ctx.model.contentTypes.get(attr.target)!;
  const w = whereContext(ctx, scope);
  const db = ctx.database.db;
  const parentIds = ids(parents);
  const conds: Expression<SqlBool>[] = [];
  let q;
  if (attr.owner) {
    const version = targetVersion(schema, 's', target, 't', 'l', scope);
    let from = db.selectFrom(`${attr.linkTable} as l`);
    // the source row is joined first when the target's version follows its locale (not needed
    // when the whole read is in one locale: the condition then names that locale)
    if (isContentType(schema) && schema.localized && target.localized && !scope.fixedLocale) from = from.innerJoin(`${schema.table} as s`, 's.id', 'l.source_id');
    q = from.innerJoin(`${target.table} as t`, (j) => j.on(and([sql<SqlBool>`${ref('t', 'document_id')} = ${ref('l', 'target_document_id')}`, ...version])));
    conds.push(sql<SqlBool>`${ref('l', 'source_id')} in (${sql.join(parentIds)})`);
  } else {
    const version = ownerVersion(schema, 's', target, 't', 'l', scope);
    q = db.selectFrom(`${attr.linkTable} as l`)
      .innerJoin(`${schema.table} as s`, 's.document_id', 'l.target_document_id')
      .innerJoin(`${target.table} as t`, (j) => j.on(and([sql<SqlBool>`${ref('t', 'id')} = ${ref('l', 'source_id')}`, ...version])));
    conds.push(sql<SqlBool>`${ref('s', 'id')} in (${sql.join(parentIds)})`);
  }
  if (node.where) conds.push(compileWhere(w, target, 't', node.where));
  if (scope.publicationFilter && target.draftAndPublish) conds.push(publicationCondition(target, 't', scope.publicationFilter, scope.status));
  const src = attr.owner ? ref('l', 'source_id') : ref('s', 'id');
  if (node.count) {
    const rows = await q.select([sql`${src}`.as('__src'), sql<number>`count(*)`.as('c')]).where(and(conds)).groupBy(sql`${src}` as never).execute() as Row[];
    return { name: attr.name, byParent: new Map(rows.map((r) => [Number(r['__src']), { count: Number(r['c']) }])), empty: () => ({ count: 0 }) };
  }
  let sel = q.select([...selectColumns(target, 't', node), sql`${src}`.as('__src')]).where(and(conds));
  if (node.sort && node.sort.length) for (const term of orderTerms(w, target, 't', node.sort)) sel = sel.orderBy(term);
  else sel = sel.orderBy(attr.owner ? 'l.ord' : 'l.inv_ord').orderBy('l.id');
  const rows = await within(ctx, sel);
  return pick(attr.name, await children(ctx, target, rows, node, node.populate, scope), attr.toMany, true);
}

function pick(name: string, byParent: Map<number, Record<string, unknown>[]>, many: boolean, last = false): Loaded {
  if (many) return { name, byParent, empty: () => [] };
  const one = new Map<number, unknown>();
  for (const [k, list] of byParent) one.set(k, (last ? list[list.length - 1] : list[0]) ?? null);
  return { name, byParent: one, empty: () => null };
}

async function loadMedia(ctx: ReadContext, schema: Schema, name: string, multiple: boolean, parents: readonly Parent[], node: PopulateNode, scope: ReadScope): Promise<Loaded> {
  const file = ctx.model.contentTypes.get(FILE_UID)!;
  const w = whereContext(ctx, scope);
  const conds: Expression<SqlBool>[] = [
    sql<SqlBool>`${ref('m', 'related_id')} in (${sql.join(ids(parents))})`,
    sql<SqlBool>`${ref('m', 'related_type')} = ${schema.uid}`,
    sql<SqlBool>`${ref('m', 'field')} = ${name}`,
  ];
  if (node.where) conds.push(compileWhere(w, file, 't', node.where));
  let sel = ctx.database.db.selectFrom('files_related_mph as m')
    .innerJoin(`${file.table} as t`, 't.id', 'm.file_id')
    .select([...selectColumns(file, 't', node), 'm.related_id as __src'])
    .where(and(conds));
  if (node.sort && node.sort.length) for (const term of orderTerms(w, file, 't', node.sort)) sel = sel.orderBy(term);
  else sel = sel.orderBy('m.ord').orderBy('m.id');
  const rows = await within(ctx, sel);
  const byParent = await children(ctx, file, rows, node, node.populate, scope);
  // files in a private bucket are handed out with signed URLs wherever they appear
  await signFileUrls(ctx, [...byParent.values()].flat());
  return pick(name, byParent, multiple);
}

async function loadComponent(ctx: ReadContext, schema: Schema, name: string, uid: string, repeatable: boolean, parents: readonly Parent[], node: PopulateNode, scope: ReadScope): Promise<Loaded> {
  const comp = ctx.model.components.get(uid)!;
  const rows = await within(ctx, ctx.database.db.selectFrom(`${schema.componentTable} as c`)
    .innerJoin(`${comp.table} as t`, 't.id', 'c.cmp_id')
    .select([...selectColumns(comp, 't', node), 'c.entity_id as __src'])
    .where(and([sql<SqlBool>`${ref('c', 'entity_id')} in (${sql.join(ids(parents))})`, sql<SqlBool>`${ref('c', 'field')} = ${name}`]))
    .orderBy('c.ord').orderBy('c.id'));
  return pick(name, await children(ctx, comp, rows, node, node.populate, scope), repeatable);
}

/**
 * A dynamic zone in one statement: its link rows left-joined to every component table it may hold,
 * each component's columns under its own alias; then one populate per component kind for nested data.
 */
async function loadZone(ctx: ReadContext, schema: Schema, name: string, components: readonly string[], parents: readonly Parent[], node: PopulateNode, scope: ReadScope): Promise<Loaded> {
  let q = ctx.database.db.selectFrom(`${schema.componentTable} as c`);
  const cols: string[] = ['c.entity_id as __src', 'c.ord as __ord', 'c.id as __link', 'c.component_type as __type'];
  const kinds = components.map((uid, i) => {
    const comp = ctx.model.components.get(uid)!;
    const alias = `z${i}`;
    const shape = rowShape(comp, null);
    const on = [sql<SqlBool>`${ref(alias, 'id')} = ${ref('c', 'cmp_id')}`, sql<SqlBool>`${ref('c', 'component_type')} = ${uid}`];
    // Always true where this kind can match (the previous kind's join found nothing for that link),
    // but it ties each join to the previous one: left joins that all hang off the link row may run in
    // any order, and PostgreSQL's planner tries them all (5 ms of planning per statement for seven kinds,
    // against 0.6 ms chained; the rows are the same).
    if (i > 0) on.push(sql<SqlBool>`${ref(`z${i - 1}`, 'id')} is null`);
    q = q.leftJoin(`${comp.table} as ${alias}`, (j) => j.on(and(on)));
    for (const col of ['id', ...shape.columns]) cols.push(`${alias}.${col} as ${alias}__${col}`);
    return { uid, comp, alias, shape, built: [] as Parent[] };
  });
  const byUid = new Map(kinds.map((k) => [k.uid, k]));
  const rows = await within(ctx, q.select(cols)
    .where(and([sql<SqlBool>`${ref('c', 'entity_id')} in (${sql.join(ids(parents))})`, sql<SqlBool>`${ref('c', 'field')} = ${name}`]))
    .orderBy('c.entity_id').orderBy('c.ord').orderBy('c.id'));
  const entries = new Map<number, Record<string, unknown>[]>();
  for (const row of rows) {
    const kind = byUid.get(String(row['__type']));
    if (!kind || row[`${kind.alias}__id`] === null) continue;
    const own: Row = { id: row[`${kind.alias}__id`] };
    for (const col of kind.shape.columns) own[col] = row[`${kind.alias}__${col}`];
    const out = kind.shape.build(own);
    kind.built.push({ row: own, out });
    const k = Number(row['__src']);
    let list = entries.get(k);
    if (!list) entries.set(k, (list = []));
    list.push(out);
  }
  await Promise.all(kinds.map(async (k) => {
    const nested = node.on?.get(k.uid);
    if (nested && nested.size > 0 && k.built.length) await populate(ctx, k.comp, k.built, nested, scope);
  }));
  // __component comes last, after any populated keys
  for (const k of kinds) for (const b of k.built) b.out['__component'] = k.uid;
  return { name, byParent: entries, empty: () => [] };
}

async function loadLocalizations(ctx: ReadContext, type: ContentType, parents: readonly Parent[], node: PopulateNode, scope: ReadScope): Promise<Loaded> {
  const conds: Expression<SqlBool>[] = [sql<SqlBool>`${ref('s', 'id')} in (${sql.join(ids(parents))})`];
  const st = statusCondition(type, 't', scope.status);
  if (st) conds.push(st);
  const rows = await within(ctx, ctx.database.db.selectFrom(`${type.table} as s`)
    .innerJoin(`${type.table} as t`, (j) => j.on(and([sql<SqlBool>`${ref('t', 'document_id')} = ${ref('s', 'document_id')}`,
      sql<SqlBool>`${ref('t', 'locale')} <> ${ref('s', 'locale')}`])))
    .select([...selectColumns(type, 't', node), 's.id as __src'])
    .where(and(conds))
    .orderBy('t.id'));
  return pick('localizations', await children(ctx, type, rows, node, node.populate, scope), true);
}

/** Fills `out` of every parent with the populated attributes, in schema order. */
export async function populate(ctx: ReadContext, schema: Schema, parents: readonly Parent[], map: PopulateMap, scope: ReadScope): Promise<void> {
  if (parents.length === 0 || map.size === 0) return;
  const jobs: Promise<Loaded>[] = [];
  for (const node of map.values()) {
    if (node.kind === 'localizations') {
      if (isContentType(schema)) jobs.push(loadLocalizations(ctx, schema, parents, node, scope));
      continue;
    }
    const attr = schema.attributes.get(node.attribute);
    if (!attr) continue;
    if (attr.kind === 'relation') jobs.push(loadRelation(ctx, schema, attr, parents, node, scope));
    else if (attr.kind === 'media') jobs.push(loadMedia(ctx, schema, attr.name, attr.multiple, parents, node, scope));
    else if (attr.kind === 'component') jobs.push(loadComponent(ctx, schema, attr.name, attr.component, attr.repeatable, parents, node, scope));
    else if (attr.kind === 'dynamiczone') jobs.push(loadZone(ctx, schema, attr.name, zoneComponents(ctx.model, attr), parents, node, scope));
  }
  const loaded = new Map((await Promise.all(jobs)).map((l) => [l.name, l]));
  // populated keys follow the schema order, whatever order the loads finished in
  const order = [...schema.order.filter((n) => loaded.has(n)), ...(loaded.has('localizations') ? ['localizations'] : [])];
  for (const p of parents) {
    const id = Number(p.row['id']);
    for (const name of order) {
      const l = loaded.get(name)!;
      const value = l.byParent.has(id) ? l.byParent.get(id) : l.empty();
      p.out[name] = value;
      ctx.budget?.hold(p.out, value);
    }
  }
}
