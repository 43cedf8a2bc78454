// A file's `related` (`populate=related` on the media library, `populate[cover][populate]=related` in
// a content read): the entries and components each file is linked to, read from the morph link table
// with one statement per linked type (never one per file), and shown only as a direct read would
// show them:
// - an entry of a content type appears only when the caller may `find` that type (the same
//   ability check as reading it, made when the query was parsed), and of a type with draft & publish
//   only its published row (published content: a draft-only document never appears, and a file
//   linked only from a draft is not listed under it);
// - a component row appears only when it belongs to such a visible row (its owning document,
//   found through the component link tables, up through nested components);
// - private attributes never appear (the row shapes leave them out).
import type { Database } from '../../database/dialect.js';
import { rowShape } from '../../values/row-shape.js';
import type { Component, ContentType, Model } from '../../schema/types.js';
import type { RelatedSpec } from '../ast.js';
import type { PopulateBudget } from './populate-budget.js';

type FileObject = Record<string, unknown>;

const LINK_TABLE = 'files_related_mph';

interface Link {
  readonly fileId: number;
  readonly relatedId: number;
  readonly type: string;
}

function schemaOf(model: Model, uid: string): ContentType | Component | undefined {
  return model.contentTypes.get(uid) ?? model.components.get(uid);
}

/** The schemas whose rows can hold a component of `uid`: through a component attribute or a dynamic zone. */
function containersOf(model: Model, uid: string): (ContentType | Component)[] {
  return [...model.contentTypes.values(), ...model.components.values()].filter((s) =>
    [...s.attributes.values()].some((a) => (a.kind === 'component' && a.component === uid) || (a.kind === 'dynamiczone' && a.components.includes(uid))),
  );
}

/** Who is reading and through which connection: what decides which related rows are visible. */
interface Reader {
  readonly database: Database;
  readonly model: Model;
  /** the content types the caller may `find` */
  readonly readable: ReadonlySet<string>;
}

/**
 * Rows of content type `type` among `ids` as the reader may see them: null without `find` on the
 * type (the check of a direct read), else a select of those rows limited to published ones on a
 * type with draft & publish (what the file routes, which read published content, show).
 */
function visibleEntries(r: Reader, type: ContentType, ids: readonly number[]) {
  if (!r.readable.has(type.uid)) return null;
  const q = r.database.db.selectFrom(type.table).where('id', 'in', [...new Set(ids)]);
  return type.draftAndPublish ? q.where('published_at', 'is not', null) : q;
}

/**
 * The ids among `ids` of rows of component `uid` that belong to a row the reader sees, following
 * each container's component link table up to the owning document. One statement per container
 * and level: bounded by the model, never by the number of rows. `path` guards against a component
 * nested in itself.
 */
async function visibleComponentIds(r: Reader, uid: string, ids: readonly number[], path: ReadonlySet<string> = new Set()): Promise<Set<number>> {
  const out = new Set<number>();
  if (ids.length === 0 || path.has(uid)) return out;
  const within = new Set([...path, uid]);
  for (const container of containersOf(r.model, uid)) {
    const links = await r.database.db
      .selectFrom(container.componentTable)
      .select(['entity_id', 'cmp_id'])
      .where('component_type', '=', uid)
      .where('cmp_id', 'in', [...new Set(ids)])
      .execute();
    if (links.length === 0) continue;
    const owners = links.map((l) => Number(l.entity_id));
    const visible =
      container.modelType === 'contentType'
        ? new Set(((await visibleEntries(r, container, owners)?.select('id').execute()) ?? []).map((row) => Number(row.id)))
        : await visibleComponentIds(r, container.uid, owners, within);
    for (const l of links) if (visible.has(Number(l.entity_id))) out.add(Number(l.cmp_id));
  }
  return out;
}

/**
 * Adds `related` to each file: the linked rows' public scalars and `__type`, ordered as Strapi 5.54 orders
 * them (by the file's place in each entry's field, then by link), leaving
 * out every row the caller could not read directly (see the top of this file). `on` keeps only the
 * types it names, each with its fields; `count` gives `{count}` of what would be listed. A content
 * read passes its populate budget: the rows read count against it, and the lists are held under
 * their files.
 */
export async function addRelated(database: Database, model: Model, files: readonly FileObject[], spec: RelatedSpec, budget?: PopulateBudget): Promise<void> {
  if (files.length === 0) return;
  const reader: Reader = { database, model, readable: spec.readable };
  const fileIds = files.map((f) => Number(f['id']));
  const links: Link[] = (
    await database.db.selectFrom(LINK_TABLE).select(['file_id', 'related_id', 'related_type']).where('file_id', 'in', fileIds).orderBy('ord').orderBy('id').execute()
  ).map((r) => ({ fileId: Number(r.file_id), relatedId: Number(r.related_id), type: String(r.related_type) }));
  const idsByType = new Map<string, number[]>();
  for (const l of links) {
    if (!schemaOf(model, l.type) || (spec.on !== null && !spec.on.has(l.type))) continue;
    let list = idsByType.get(l.type);
    if (!list) idsByType.set(l.type, (list = []));
    list.push(l.relatedId);
  }
  const rows = new Map<string, Record<string, unknown>>();
  for (const [type, linked] of idsByType) {
    const schema = schemaOf(model, type)!;
    const shape = rowShape(schema, spec.on?.get(type) ?? null);
    const base = schema.modelType === 'contentType' ? ['id', 'document_id'] : ['id'];
    const columns = [...new Set([...base, ...shape.columns])];
    let found: Record<string, unknown>[] = [];
    if (schema.modelType === 'contentType') {
      found = ((await visibleEntries(reader, schema, linked)?.select(columns).execute()) as Record<string, unknown>[]) ?? [];
    } else {
      const ids = await visibleComponentIds(reader, type, linked);
      if (ids.size > 0)
        found = (await database.db
          .selectFrom(schema.table)
          .select(columns)
          .where('id', 'in', [...ids])
          .execute()) as Record<string, unknown>[];
    }
    budget?.take(found.length);
    for (const r of found) rows.set(`${type}#${Number(r['id'])}`, { ...shape.build(r), __type: type });
  }
  const byFile = new Map<number, Record<string, unknown>[]>(fileIds.map((id) => [id, []]));
  for (const l of links) {
    const row = rows.get(`${l.type}#${l.relatedId}`);
    if (row) byFile.get(l.fileId)!.push(row);
  }
  for (const f of files) {
    const list = byFile.get(Number(f['id'])) ?? [];
    f['related'] = spec.count ? { count: list.length } : list;
    if (!spec.count) budget?.hold(f, list);
  }
}
