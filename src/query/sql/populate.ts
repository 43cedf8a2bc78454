// Loads populated relations, media, components and dynamic zones for a batch of parent rows.
// One statement per populated attribute and level (IN lists over the whole batch; a dynamic zone adds
// one per component kind present), never one per document: the statement count is bounded by the
// populate's shape, whatever the page size.
import { sql, type Compilable, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { PopulateMap, PopulateNode } from '../ast.js';
import { FILE_UID, ROLE_UID, type Component, type ContentType, type RelationAttribute } from '../../schema/types.js';
import { rowShape } from '../../values/row-shape.js';
import { formatDatetime } from '../../values/format-value.js';
import { PERMISSION_FIELDS } from '../parse/permission-fields.js';
import { zoneComponents } from '../../schema/zone.js';
import { publicationCondition } from './publication.js';
import { and, isContentType, ownerVersion, ref, statusCondition, targetVersion, type ReadScope } from './scope.js';
import { keyLiteral } from './key-literal.js';
import { compileWhere } from './where.js';
import { runTemplate, type StatementKeys } from './statement-template.js';
import { readLinks } from './link-batch.js';
import { readFiles, readMediaLinks } from './media-batch.js';
import { addRelated } from './file-related.js';
import { orderTerms, whereContext, type ReadContext, type Row } from './find.js';
import { inLinkOrder } from './link-order.js';
import { TRANSACTION_COSTS, type PopulateCosts } from './populate-cost.js';

/** A loader's answer: the value of one attribute for each parent id, and the value when none. */
interface Loaded {
  readonly name: string;
  readonly byParent: Map<number, unknown>;
  readonly empty: () => unknown;
  /** where Strapi puts the key among the level's (populate-cost.ts) */
  readonly cost: number;
}

export interface Parent {
  readonly row: Row;
  readonly out: Record<string, unknown>;
}

/**
 * A read as populate sees it. `files` receives every media file object built, so the document
 * read that owns the list can present them (a private bucket signs their URLs) without SQL
 * compilation knowing about the upload plugin.
 */
export interface PopulateContext extends ReadContext {
  readonly files?: Record<string, unknown>[];
}

/** the cost model of the read's route (document reads by default) */
const costsOf = (ctx: ReadContext): PopulateCosts => ctx.populateCosts ?? TRANSACTION_COSTS;

/** Hands built file objects to the read's `files` list (a loop: a spread of many would hit the argument limit). */
function collectFiles(ctx: PopulateContext, files: Iterable<Record<string, unknown>>): void {
  if (!ctx.files) return;
  for (const f of files) ctx.files.push(f);
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
  if (!ctx.budget) return (await q.execute()) as Row[];
  const rows = (await q.limit(sql.lit(ctx.budget.limit())).execute()) as Row[];
  ctx.budget.take(rows.length);
  return rows;
}

/**
 * `within`, for a statement whose shape is `key` and whose only varying values are `values`: compiled
 * once per shape (statement-template.ts).
 */
async function withinTemplate<V extends readonly unknown[]>(
  ctx: ReadContext,
  key: string,
  values: V,
  build: (...values: V) => Runnable & Compilable<unknown>,
  keys?: StatementKeys<Row>,
): Promise<Row[]> {
  const limit = ctx.budget?.limit();
  const rows = (await runTemplate(
    ctx.model,
    ctx.database,
    `${key}\u0000${limit ?? ''}`,
    values,
    (...v: V) => (limit === undefined ? build(...v) : (build(...v).limit(sql.lit(limit)) as unknown as Compilable<unknown>)),
    keys as StatementKeys<unknown> | undefined,
  )) as Row[];
  ctx.budget?.take(rows.length);
  return rows;
}

/** Builds child objects from rows, populates them further, and returns them by parent id. */
async function children(
  ctx: PopulateContext,
  schema: Schema,
  rows: Row[],
  node: PopulateNode,
  nested: PopulateMap,
  scope: ReadScope,
): Promise<{ byParent: Map<number, Record<string, unknown>[]>; cost: number }> {
  const shape = rowShape(schema, node.fields);
  const built: Parent[] = rows.map((row) => ({ row, out: shape.build(row) }));
  const below = nested.size > 0 ? await populate(ctx, schema, built, nested, scope) : 0;
  const out = new Map<number, Record<string, unknown>[]>();
  built.forEach((b) => {
    const k = Number(b.row['__src']);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(b.out);
  });
  return { byParent: out, cost: costsOf(ctx).attribute(node, rows.length > 0, below) };
}

async function loadRelation(ctx: PopulateContext, schema: Schema, attr: RelationAttribute, parents: readonly Parent[], node: PopulateNode, scope: ReadScope): Promise<Loaded> {
  const target = ctx.model.contentTypes.get(attr.target)!;
  const w = whereContext(ctx, scope);
  const db = ctx.database.db;
  const src = attr.owner ? ref('l', 'source_id') : ref('s', 'id');
  /** the link and target rows of the parents, under every condition of the read */
  const linked = (parentIds: readonly number[]) => {
    const conds: Expression<SqlBool>[] = [];
    let q;
    if (attr.owner) {
      const version = targetVersion(schema, 's', target, 't', 'l', scope);
      let from = db.selectFrom(`${attr.linkTable} as l`);
      // the source row is joined first when the target's version follows its locale (not needed
      // when the whole read is in one locale: the condition then names that locale)
      if (isContentType(schema) && schema.localized && target.localized && !scope.fixedLocale) from = from.innerJoin(`${schema.table} as s`, 's.id', 'l.source_id');
      q = from.innerJoin(`${target.table} as t`, (j) => j.on(and([sql<SqlBool>`${ref('t', 'document_id')} = ${ref('l', 'target_document_id')}`, ...version])));
      conds.push(ctx.database.dialect.oneOf(ref('l', 'source_id'), parentIds, 'integer'));
    } else {
      const version = ownerVersion(schema, 's', target, 't', 'l', scope);
      q = db
        .selectFrom(`${attr.linkTable} as l`)
        .innerJoin(`${schema.table} as s`, 's.document_id', 'l.target_document_id')
        .innerJoin(`${target.table} as t`, (j) => j.on(and([sql<SqlBool>`${ref('t', 'id')} = ${ref('l', 'source_id')}`, ...version])));
      conds.push(ctx.database.dialect.oneOf(ref('s', 'id'), parentIds, 'integer'));
    }
    if (node.where) conds.push(compileWhere(w, target, 't', node.where));
    if (scope.publicationFilter && target.draftAndPublish) conds.push(publicationCondition(target, 't', scope.publicationFilter, scope.status));
    return { q, where: and(conds) };
  };
  if (node.count) {
    const { q, where } = linked(ids(parents));
    const rows = (await q
      .select([sql`${src}`.as('__src'), sql<number>`count(*)`.as('c')])
      .where(where)
      .groupBy(sql`${src}` as never)
      .execute()) as Row[];
    return {
      name: attr.name,
      byParent: new Map(rows.map((r) => [Number(r['__src']), { count: Number(r['c']) }])),
      empty: () => ({ count: 0 }),
      cost: costsOf(ctx).attribute(node, false, 0),
    };
  }
  if (!node.where && !node.sort?.length && attr.owner && oneVersionPerTarget(schema, target, scope)) {
    return await loadLinkedTargets(ctx, schema, attr, target, parents, node, scope);
  }
  const columns = selectColumns(target, 't', node);
  const select = (parentIds: readonly number[]) => {
    const { q, where } = linked(parentIds);
    let sel = q.select([...columns, sql`${src}`.as('__src')]).where(where);
    if (node.sort && node.sort.length) for (const term of orderTerms(w, target, 't', node.sort)) sel = sel.orderBy(term);
    else sel = sel.orderBy(attr.owner ? 'l.ord' : 'l.inv_ord').orderBy('l.id');
    return sel;
  };
  // a where or sort of the populate binds its own values: those statements are built each time
  const rows =
    node.where || node.sort?.length
      ? await within(ctx, select(ids(parents)))
      : await withinTemplate(ctx, `relation\u0000${schema.uid}\u0000${attr.name}\u0000${columns.join(',')}\u0000${JSON.stringify(scope)}`, [ids(parents)] as const, select);
  return pick(attr.name, await children(ctx, target, rows, node, node.populate, scope), attr.toMany);
}

/**
 * Whether the version of a target that a link shows is the same for every link of this read: the
 * read is in one locale (or the target has none) and its status applies (or the target has no
 * drafts). Otherwise it follows each source row's locale or each link's own locale or status.
 */
function oneVersionPerTarget(schema: Schema, target: ContentType, scope: ReadScope): boolean {
  const localeFixed = !target.localized || (isContentType(schema) && schema.localized && scope.fixedLocale === true);
  const statusFixed = !target.draftAndPublish || (isContentType(schema) && schema.draftAndPublish);
  return localeFixed && statusFixed;
}

/**
 * An owning relation without a where or sort of its own, whose targets show one version each: the
 * links first, then each target they name once. A few tags or categories recur across a page (30
 * categories behind 66 links on the bench's page): the join built each target once per link. A
 * target under several parents is one object.
 */
async function loadLinkedTargets(
  ctx: PopulateContext,
  schema: Schema,
  attr: RelationAttribute,
  target: ContentType,
  parents: readonly Parent[],
  node: PopulateNode,
  scope: ReadScope,
): Promise<Loaded> {
  const db = ctx.database.db;
  const columns = selectColumns(target, 't', node);
  const links = await readLinks(ctx, attr.linkTable, ids(parents));
  const documentIds = [...new Set(links.map((l) => String(l['__doc'])))];
  const rows =
    documentIds.length === 0
      ? []
      : ((await runTemplate(
          ctx.model,
          ctx.database,
          `relation targets\u0000${schema.uid}\u0000${attr.name}\u0000${columns.join(',')}\u0000${JSON.stringify(scope)}`,
          [documentIds] as const,
          (docs) => {
            const conds: Expression<SqlBool>[] = [ctx.database.dialect.oneOf(ref('t', 'document_id'), docs, 'text'), ...targetVersion(schema, 's', target, 't', 'l', scope)];
            if (scope.publicationFilter && target.draftAndPublish) conds.push(publicationCondition(target, 't', scope.publicationFilter, scope.status));
            return db
              .selectFrom(`${target.table} as t`)
              .select([...columns])
              .where(and(conds));
          },
          { before: [{ table: target.table, column: 'document_id', values: documentIds }] },
        )) as Row[]);
  const shape = rowShape(target, node.fields);
  const byDocument = new Map<string, Parent>(rows.map((row) => [String(row['document_id']), { row, out: shape.build(row) }]));
  const below = node.populate.size > 0 ? await populate(ctx, target, [...byDocument.values()], node.populate, scope) : 0;
  // a link to a document without the version this read shows is not followed
  return pick(attr.name, { byParent: linkedObjects(links, (l) => String(l['__doc']), byDocument), cost: costsOf(ctx).attribute(node, rows.length > 0, below) }, attr.toMany);
}

/** A to-one holding several links (an owner without locales linking two locale versions) shows the first, as Strapi 5.54 does. */
function pick(name: string, read: { byParent: Map<number, Record<string, unknown>[]>; cost: number }, many: boolean): Loaded {
  const { byParent, cost } = read;
  if (many) return { name, byParent, empty: () => [], cost };
  const one = new Map<number, unknown>();
  for (const [k, list] of byParent) one.set(k, list[0] ?? null);
  return { name, byParent: one, empty: () => null, cost };
}

async function loadMedia(ctx: PopulateContext, schema: Schema, name: string, multiple: boolean, parents: readonly Parent[], node: PopulateNode, scope: ReadScope): Promise<Loaded> {
  const file = ctx.model.contentTypes.get(FILE_UID)!;
  const columns = selectColumns(file, 't', node);
  const linkedTo = (parentIds: readonly number[]) =>
    and([
      ctx.database.dialect.oneOf(ref('m', 'related_id'), parentIds, 'integer'),
      sql<SqlBool>`${ref('m', 'related_type')} = ${keyLiteral(schema.uid)}`,
      sql<SqlBool>`${ref('m', 'field')} = ${keyLiteral(name)}`,
    ]);
  if (!node.where && !node.sort?.length) return await loadLinkedFiles(ctx, file, columns, schema, name, multiple, parents, node, scope);
  const w = whereContext(ctx, scope);
  const select = (parentIds: readonly number[]) => {
    const conds: Expression<SqlBool>[] = [linkedTo(parentIds)];
    if (node.where) conds.push(compileWhere(w, file, 't', node.where));
    let sel = ctx.database.db
      .selectFrom('files_related_mph as m')
      .innerJoin(`${file.table} as t`, 't.id', 'm.file_id')
      .select([...columns, 'm.related_id as __src'])
      .where(and(conds));
    if (node.sort && node.sort.length) for (const term of orderTerms(w, file, 't', node.sort)) sel = sel.orderBy(term);
    else sel = sel.orderBy('m.ord').orderBy('m.id');
    return sel;
  };
  const read = await children(ctx, file, await within(ctx, select(ids(parents))), node, node.populate, scope);
  if (node.related) await addRelated(ctx.database, ctx.model, [...new Set([...read.byParent.values()].flat())], node.related, ctx.budget);
  for (const list of read.byParent.values()) collectFiles(ctx, list);
  const outs = [...read.byParent.values()].flat();
  return pick(name, { byParent: read.byParent, cost: Math.max(read.cost, costsOf(ctx).attribute(node, outs.length > 0, relatedCost(ctx, node, outs))) }, multiple);
}

/** A file's `related` as a level below the file, for where the key comes: Strapi reads it as a polymorphic relation. */
function relatedCost(ctx: ReadContext, node: PopulateNode, files: readonly Record<string, unknown>[]): number {
  if (!node.related) return 0;
  return costsOf(ctx).related(files.some((f) => Array.isArray(f['related']) && f['related'].length > 0));
}

/** Each link's object under the link's parent (`__src`), in link order; a link whose object wasn't read is skipped. */
function linkedObjects<K>(links: readonly Row[], key: (link: Row) => K, objects: ReadonlyMap<K, Parent>): Map<number, Record<string, unknown>[]> {
  const byParent = new Map<number, Record<string, unknown>[]>();
  for (const link of links) {
    const o = objects.get(key(link));
    if (!o) continue;
    const k = Number(link['__src']);
    let list = byParent.get(k);
    if (!list) byParent.set(k, (list = []));
    list.push(o.out);
  }
  return byParent;
}

/**
 * A media attribute without a where or sort of its own: its links first, then each file they name
 * once. A library's few files recur across a page (8 files behind 35 links in the bench's seo
 * images): joining them to every link read and built each file's ~20 columns once per link, 2–3
 * times the cost of the two small statements. A file under several parents is one object.
 */
async function loadLinkedFiles(
  ctx: PopulateContext,
  file: ContentType,
  columns: readonly string[],
  schema: Schema,
  name: string,
  multiple: boolean,
  parents: readonly Parent[],
  node: PopulateNode,
  scope: ReadScope,
): Promise<Loaded> {
  const links = await readMediaLinks(ctx, schema.uid, name, ids(parents));
  const fileIds = [...new Set(links.map((l) => Number(l['__file'])))];
  const rows = fileIds.length === 0 ? [] : await readFiles(ctx, file.table, columns, fileIds);
  const shape = rowShape(file, node.fields);
  const files = new Map<number, Parent>(rows.map((row) => [Number(row['id']), { row, out: shape.build(row) }]));
  const below = node.populate.size > 0 ? await populate(ctx, file, [...files.values()], node.populate, scope) : 0;
  if (node.related)
    await addRelated(
      ctx.database,
      ctx.model,
      [...files.values()].map((f) => f.out),
      node.related,
      ctx.budget,
    );
  // a file deleted between the two statements is left out, as a later read would
  const byParent = linkedObjects(links, (l) => Number(l['__file']), files);
  const outs = [...files.values()].map((f) => f.out);
  collectFiles(ctx, outs);
  return pick(name, { byParent, cost: costsOf(ctx).attribute(node, rows.length > 0, Math.max(below, relatedCost(ctx, node, outs))) }, multiple);
}

async function loadComponent(
  ctx: PopulateContext,
  schema: Schema,
  name: string,
  uid: string,
  repeatable: boolean,
  parents: readonly Parent[],
  node: PopulateNode,
  scope: ReadScope,
): Promise<Loaded> {
  const comp = ctx.model.components.get(uid)!;
  const parentIds = ids(parents);
  if (node.count) {
    // the entries that exist, as Strapi counts them through its component join table
    const rows = (await ctx.database.db
      .selectFrom(`${schema.componentTable} as c`)
      .innerJoin(`${comp.table} as t`, 't.id', 'c.cmp_id')
      .select([sql`${ref('c', 'entity_id')}`.as('__src'), sql<number>`count(*)`.as('n')])
      .where(and([ctx.database.dialect.oneOf(ref('c', 'entity_id'), parentIds, 'integer'), sql<SqlBool>`${ref('c', 'field')} = ${keyLiteral(name)}`]))
      .groupBy(sql`${ref('c', 'entity_id')}` as never)
      .execute()) as Row[];
    return { name, byParent: new Map(rows.map((r) => [Number(r['__src']), { count: Number(r['n']) }])), empty: () => ({ count: 0 }), cost: costsOf(ctx).attribute(node, false, 0) };
  }
  const columns = selectColumns(comp, 't', node);
  if (node.where || node.sort?.length) {
    // the populate's own filters leave out the entries they don't match (a single component not
    // matching is null) and its sort orders each parent's entries, as in Strapi; their values vary
    // from request to request, so the statement is built each time
    const w = whereContext(ctx, scope);
    const conds: Expression<SqlBool>[] = [ctx.database.dialect.oneOf(ref('c', 'entity_id'), parentIds, 'integer'), sql<SqlBool>`${ref('c', 'field')} = ${keyLiteral(name)}`];
    if (node.where) conds.push(compileWhere(w, comp, 't', node.where));
    let sel = ctx.database.db
      .selectFrom(`${schema.componentTable} as c`)
      .innerJoin(`${comp.table} as t`, 't.id', 'c.cmp_id')
      .select([...columns, 'c.entity_id as __src', 'c.cmp_id as __cmp'])
      .where(and(conds));
    for (const term of node.sort ? orderTerms(w, comp, 't', node.sort) : []) sel = sel.orderBy(term);
    const matched = await within(ctx, sel.orderBy('c.ord').orderBy('c.id'));
    return pick(name, await children(ctx, comp, matched, node, node.populate, scope), repeatable);
  }
  // a left join: the component rows read are those the links name, whether they exist or not, which
  // is what a recording read must know (a link naming a missing row shows a row inserted later)
  const rows = await withinTemplate(
    ctx,
    `component\u0000${schema.uid}\u0000${name}\u0000${uid}\u0000${columns.join(',')}`,
    [parentIds] as const,
    (idList) =>
      ctx.database.db
        .selectFrom(`${schema.componentTable} as c`)
        .leftJoin(`${comp.table} as t`, 't.id', 'c.cmp_id')
        .select([...columns, 'c.entity_id as __src', 'c.cmp_id as __cmp', 'c.ord as __ord', 'c.id as __id'])
        .where(and([ctx.database.dialect.oneOf(ref('c', 'entity_id'), idList, 'integer'), sql<SqlBool>`${ref('c', 'field')} = ${keyLiteral(name)}`])),
    {
      before: [
        { table: schema.componentTable, column: 'entity_id', values: parentIds },
        { table: comp.table, column: 'id', values: [] },
      ],
      fromRows: (read) => [{ table: comp.table, column: 'id', values: read.map((r) => r['__cmp']) }],
    },
  );
  const found = inLinkOrder(rows.filter((r) => r['id'] !== null && r['id'] !== undefined));
  return pick(name, await children(ctx, comp, found, node, node.populate, scope), repeatable);
}

const ZONE_IDS_PER_STATEMENT = 10_000;

/**
 * A dynamic zone: its link rows in one statement, then each component kind that occurs read by id,
 * one statement per kind; then one populate per kind for nested data. (One statement left-joining every
 * kind's table was tried: PostgreSQL planned its seven joins for 2.5 ms and hashed whole component
 * tables to run them, 11 ms per 25 documents, where primary-key reads take a fraction of a millisecond.)
 */
async function loadZone(
  ctx: PopulateContext,
  schema: Schema,
  name: string,
  components: readonly string[],
  parents: readonly Parent[],
  node: PopulateNode,
  scope: ReadScope,
): Promise<Loaded> {
  const db = ctx.database.db;
  const parentIds = ids(parents);
  const links = await withinTemplate(
    ctx,
    `zone\u0000${schema.uid}\u0000${name}`,
    [parentIds] as const,
    (idList) =>
      db
        .selectFrom(`${schema.componentTable} as c`)
        .select(['c.entity_id as __src', 'c.cmp_id as __cmp', 'c.component_type as __type', 'c.ord as __ord', 'c.id as __id'])
        .where(and([ctx.database.dialect.oneOf(ref('c', 'entity_id'), idList, 'integer'), sql<SqlBool>`${ref('c', 'field')} = ${keyLiteral(name)}`])),
    { before: [{ table: schema.componentTable, column: 'entity_id', values: parentIds }] },
  );
  inLinkOrder(links);
  // `on` fragments name the components a client wants: Strapi leaves the other entries out
  const allowed = new Set(node.fragmentsOnly ? components.filter((uid) => node.on?.has(uid)) : components);
  const idsByKind = new Map<string, Set<number>>();
  for (const l of links) {
    const uid = String(l['__type']);
    if (!allowed.has(uid)) continue;
    let set = idsByKind.get(uid);
    if (!set) idsByKind.set(uid, (set = new Set()));
    set.add(Number(l['__cmp']));
  }
  const kinds = new Map(
    await Promise.all(
      [...idsByKind].map(async ([uid, cmpIds]) => {
        const comp = ctx.model.components.get(uid)!;
        const fragment = node.on?.get(uid);
        const shape = rowShape(comp, fragment?.fields ?? null);
        const columns = ['id', ...shape.columns].map((c) => `t.${c}`);
        const filter = fragment?.where ?? null;
        const all = [...cmpIds];
        // a component with nothing but its id to show (only media, relations or components below it):
        // its entry's id is in the link row already, and a read of the table would only repeat it (the
        // entry's delete, which alone would change that, writes the link table the read recorded)
        const idOnly = shape.columns.length === 0 && filter === null;
        const rows: Row[] = idOnly ? all.map((id) => ({ id })) : [];
        // a zone may hold thousands of entries per document: keep each IN list within bound-parameter limits
        if (!idOnly)
          for (let i = 0; i < all.length; i += ZONE_IDS_PER_STATEMENT) {
            const chunk = all.slice(i, i + ZONE_IDS_PER_STATEMENT);
            const read = db.selectFrom(`${comp.table} as t`).select(columns);
            rows.push(
              ...((filter === null
                ? await runTemplate(
                    ctx.model,
                    ctx.database,
                    `zone kind\u0000${uid}\u0000${columns.join(',')}`,
                    [chunk] as const,
                    (kindIds) => read.where(ctx.database.dialect.oneOf(ref('t', 'id'), kindIds, 'integer')),
                    { before: [{ table: comp.table, column: 'id', values: chunk }] },
                  )
                : // a fragment's filters leave out the entries they don't match (their values vary: no template)
                  await read
                    .where(and([ctx.database.dialect.oneOf(ref('t', 'id'), chunk, 'integer'), compileWhere(whereContext(ctx, scope), comp, 't', filter)]))
                    .execute()) as Row[]),
            );
          }
        const kind = { uid, comp, shape, rows: new Map(rows.map((r) => [Number(r['id']), r])), built: [] as Parent[] };
        return [uid, kind] as const;
      }),
    ),
  );
  const entries = new Map<number, Record<string, unknown>[]>();
  for (const l of links) {
    const kind = kinds.get(String(l['__type']));
    const row = kind?.rows.get(Number(l['__cmp']));
    if (!kind || !row) continue;
    const out = kind.shape.build(row);
    kind.built.push({ row, out });
    const k = Number(l['__src']);
    let list = entries.get(k);
    if (!list) entries.set(k, (list = []));
    list.push(out);
  }
  const kindCosts = await Promise.all(
    [...kinds.values()]
      .filter((k) => k.built.length > 0)
      .map(async (k) => {
        const fragment = node.on?.get(k.uid);
        const nested = fragment?.populate;
        const below = nested && nested.size > 0 ? await populate(ctx, k.comp, k.built, nested, scope) : 0;
        return costsOf(ctx).zoneKind(fragment ? fragment.nested : node.nested, below);
      }),
  );
  // __component comes last, after any populated keys
  for (const k of kinds.values()) for (const b of k.built) b.out['__component'] = k.uid;
  return { name, byParent: entries, empty: () => [], cost: costsOf(ctx).zone(kindCosts) };
}

async function loadLocalizations(ctx: PopulateContext, type: ContentType, parents: readonly Parent[], node: PopulateNode, readScope: ReadScope): Promise<Loaded> {
  // the rows found here are in other locales than the read's: below them no locale is fixed
  const scope: ReadScope = { ...readScope, fixedLocale: false };
  const columns = selectColumns(type, 't', node);
  const w = whereContext(ctx, scope);
  const select = (parentIds: readonly number[]) => {
    const conds: Expression<SqlBool>[] = [ctx.database.dialect.oneOf(ref('s', 'id'), parentIds, 'integer')];
    const st = statusCondition(type, 't', scope.status);
    if (st) conds.push(st);
    // the populate's own filters and sort, as Strapi honours them here too
    if (node.where) conds.push(compileWhere(w, type, 't', node.where));
    let sel = ctx.database.db
      .selectFrom(`${type.table} as s`)
      .innerJoin(`${type.table} as t`, (j) =>
        j.on(and([sql<SqlBool>`${ref('t', 'document_id')} = ${ref('s', 'document_id')}`, sql<SqlBool>`${ref('t', 'locale')} <> ${ref('s', 'locale')}`])),
      )
      .select([...columns, 's.id as __src'])
      .where(and(conds));
    if (node.sort && node.sort.length) for (const term of orderTerms(w, type, 't', node.sort)) sel = sel.orderBy(term);
    return sel.orderBy('t.id');
  };
  // a where or sort of the populate binds its own values: those statements are built each time
  const rows =
    node.where || node.sort?.length
      ? await within(ctx, select(ids(parents)))
      : await withinTemplate(ctx, `localizations\u0000${type.uid}\u0000${scope.status}\u0000${columns.join(',')}`, [ids(parents)] as const, select, {
          // both sides of the self-join are rows of the parents' documents
          before: [{ table: type.table, column: 'document_id', values: new Set(parents.map((p) => p.row['document_id'])), occurrences: 2 }],
        });
  return pick('localizations', await children(ctx, type, rows, node, node.populate, scope), true);
}

const PERMISSION_COLUMNS: Readonly<Record<string, string>> = { action: 'action', createdAt: 'created_at', updatedAt: 'updated_at', publishedAt: 'published_at' };

/** A role's permissions (table up_permissions, outside the model), each as Strapi shows a permission. */
async function loadPermissions(ctx: PopulateContext, parents: readonly Parent[], node: PopulateNode): Promise<Loaded> {
  const fields = node.fields ?? PERMISSION_FIELDS;
  const rows = await within(
    ctx,
    ctx.database.db
      .selectFrom('up_permissions')
      .select(['id', 'document_id', 'role_id', 'action', 'created_at', 'updated_at', 'published_at'])
      .where('role_id', 'in', ids(parents))
      .orderBy('id'),
  );
  const byParent = new Map<number, Record<string, unknown>[]>();
  for (const row of rows) {
    const out: Record<string, unknown> = { id: Number(row['id']), documentId: row['document_id'] };
    for (const f of fields) {
      const v = row[PERMISSION_COLUMNS[f]!];
      out[f] = f === 'action' ? v : formatDatetime(v);
    }
    const k = Number(row['role_id']);
    let list = byParent.get(k);
    if (!list) byParent.set(k, (list = []));
    list.push(out);
  }
  return { name: 'permissions', byParent, empty: () => [], cost: costsOf(ctx).attribute(node, false, 0) };
}

/** A relation that never holds a link (to the admin panel's users or roles): empty for every parent, with no read. */
function unlinked(ctx: ReadContext, attr: RelationAttribute, node: PopulateNode): Loaded {
  const empty = node.count ? () => ({ count: 0 }) : attr.toMany ? () => [] : () => null;
  return { name: attr.name, byParent: new Map(), empty, cost: costsOf(ctx).attribute(node, false, 0) };
}

/** Fills `out` of every parent with the populated attributes, in schema order. */
/**
 * Populates `map` on `parents`, putting each populated key where Strapi puts it (populate-cost.ts);
 * answers the costliest key's cost (0 when nothing was populated).
 */
export async function populate(ctx: PopulateContext, schema: Schema, parents: readonly Parent[], map: PopulateMap, scope: ReadScope): Promise<number> {
  if (parents.length === 0 || map.size === 0) return 0;
  const jobs: Promise<Loaded>[] = [];
  for (const node of map.values()) {
    if (node.kind === 'localizations') {
      if (isContentType(schema)) jobs.push(loadLocalizations(ctx, schema, parents, node, scope));
      continue;
    }
    if (node.kind === 'permissions') {
      if (schema.uid === ROLE_UID) jobs.push(loadPermissions(ctx, parents, node));
      continue;
    }
    if (node.kind === 'unlinked') {
      const admin = schema.adminRelations?.get(node.attribute);
      if (admin) jobs.push(Promise.resolve(unlinked(ctx, admin, node)));
      continue;
    }
    const attr = schema.attributes.get(node.attribute);
    if (!attr) continue;
    if (attr.kind === 'relation') jobs.push(loadRelation(ctx, schema, attr, parents, node, scope));
    else if (attr.kind === 'media') jobs.push(loadMedia(ctx, schema, attr.name, attr.multiple, parents, node, scope));
    else if (attr.kind === 'component') jobs.push(loadComponent(ctx, schema, attr.name, attr.component, attr.repeatable, parents, node, scope));
    else if (attr.kind === 'dynamiczone') jobs.push(loadZone(ctx, schema, attr.name, zoneComponents(attr), parents, node, scope));
  }
  const loaded = new Map((await Promise.all(jobs)).map((l) => [l.name, l]));
  // cheapest first, ties in the order asked (populate=* asks in schema order): a stable sort
  const order = [...map.keys()].filter((n) => loaded.has(n)).sort((a, b) => loaded.get(a)!.cost - loaded.get(b)!.cost);
  for (const p of parents) {
    const id = Number(p.row['id']);
    for (const name of order) {
      const l = loaded.get(name)!;
      const value = l.byParent.has(id) ? l.byParent.get(id) : l.empty();
      p.out[name] = value;
      ctx.budget?.hold(p.out, value);
    }
  }
  return Math.max(0, ...[...loaded.values()].map((l) => l.cost));
}
