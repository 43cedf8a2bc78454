// Strapi turns every documentId a write body names into a row id before it validates the values, so
// a body naming a document that doesn't exist is refused for that, whatever else is wrong with it.
// Folio validates values first, without the database; when they fail, this looks the named
// documentIds up and, if one names no document at all, that is the error the client gets.
import { mediaRefs } from '../input/media-payload.js';
import { pathText } from '../input/messages.js';
import { relationOp } from '../input/relation-payload.js';
import type { RelationRef } from '../input/types.js';
import { isObj, type Obj, type Schema } from '../input/walk.js';
import { zoneComponents } from '../../schema/zone.js';
import type { Attribute, Model } from '../../schema/types.js';
import type { Tx } from './rows.js';
import { notFound } from './targets.js';
import { FILES_TABLE } from '../../plugins/upload/file-row.js';
import { ValidationError } from '../../errors.js';

/** A documentId the body names, where to look for it and the locale Strapi's message names. */
interface Named {
  /** null: a type Folio never stores (the admin panel's users), where no document is found */
  readonly table: string | null;
  readonly doc: string;
  readonly locale: string | null;
  /** a link that names the published version (rule 6): the document must have one */
  readonly published?: boolean;
}

interface Walk {
  readonly model: Model;
  readonly defaultLocale: string;
  readonly out: Named[];
  /** whether the document written has draft & publish: without it, a link may name its target's status */
  readonly draftAndPublish: boolean;
}

/** ids per lookup: a 1 MB body can name ~35,000 documents, past SQLite's limit of bound values */
const IDS_PER_LOOKUP = 1000;

/** what `read` gives, or nothing when the value is malformed: that was refused already, and is not this check's to report */
export function readable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (e) {
    if (e instanceof ValidationError) return undefined;
    throw e;
  }
}

/** a disconnect's documents before a connect's, in the order Strapi 5.54 looks them up */
function refsOf(op: ReturnType<typeof relationOp>): RelationRef[] {
  return op.kind === 'set' ? op.items : [...op.disconnect, ...op.connect];
}

/**
 * The component items and zone entries a write body holds under `a`, with their schemas and paths: of
 * either shape for a component (Strapi looks into a list given for a single one too), and only zone
 * entries naming a component the zone allows.
 */
export function nestedItems(model: Model, a: Attribute, value: unknown, p: readonly string[]): { schema: Schema; data: Obj; path: string[] }[] {
  const out: { schema: Schema; data: Obj; path: string[] }[] = [];
  if (a.kind === 'component') {
    const schema = model.components.get(a.component)!;
    const items = Array.isArray(value) ? value : [value];
    items.forEach((v, i) => {
      if (isObj(v)) out.push({ schema, data: v, path: a.repeatable ? [...p, String(i)] : [...p] });
    });
  } else if (a.kind === 'dynamiczone' && Array.isArray(value)) {
    const allowed = zoneComponents(a);
    value.forEach((v, i) => {
      const uid = isObj(v) ? v['__component'] : undefined;
      const schema = typeof uid === 'string' && allowed.includes(uid) ? model.components.get(uid) : undefined;
      if (schema && isObj(v)) out.push({ schema, data: v, path: [...p, String(i)] });
    });
  }
  return out;
}

/** The documentIds in `data` (a body, or a component within it), in the body's order. */
function collect(w: Walk, schema: Schema, data: Obj, path: string[], sourceLocale: string | null): void {
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    const p = [...path, key];
    const admin = schema.adminRelations?.get(key);
    if (admin) {
      const op = readable(() => relationOp(admin, value, pathText(p)));
      for (const r of op ? refsOf(op) : []) if (r.documentId !== undefined) w.out.push({ table: null, doc: r.documentId, locale: null });
      continue;
    }
    const a = schema.attributes.get(key);
    if (!a) continue;
    if (a.kind === 'relation') {
      const target = w.model.contentTypes.get(a.target)!;
      const op = readable(() => relationOp(a, value, pathText(p)));
      const linked = new Set(op ? (op.kind === 'set' ? op.items : op.connect) : []);
      for (const r of op ? refsOf(op) : []) {
        if (r.documentId === undefined) continue;
        // as the writer places links: a localized source links its own locale, any other the one each ref names
        const locale = !target.localized ? null : (sourceLocale ?? r.locale ?? w.defaultLocale);
        // a link naming the published version of a draft & publish target needs one, as Strapi 5.54 looks it up
        const published = linked.has(r) && r.status === 'published' && target.draftAndPublish && !w.draftAndPublish;
        w.out.push({ table: target.table, doc: r.documentId, locale, published });
      }
    } else if (a.kind === 'media') {
      const refs = readable(() => mediaRefs(a, value, pathText(p))) ?? [];
      for (const r of refs) if (r.documentId !== undefined) w.out.push({ table: FILES_TABLE, doc: r.documentId, locale: null });
    } else for (const n of nestedItems(w.model, a, value, p)) collect(w, n.schema, n.data, n.path, null);
  }
}

/**
 * Throws Strapi's "Document with id …, locale … not found" for the first documentId in `data` that
 * names no document in its type, in the locale the link would name (a category that has no French
 * version, linked from a French article, as Strapi 5.54 maps ids per locale before it validates); in
 * any status, except that a link naming the published version (`status: 'published'` from a type
 * without draft & publish) needs one there too, as Strapi looks that version up.
 */
export async function refuseMissingDocuments(tx: Tx, model: Model, schema: Schema, data: unknown, writeLocale: string | null, defaultLocale: string): Promise<void> {
  if (!isObj(data)) return;
  const w: Walk = { model, defaultLocale, out: [], draftAndPublish: schema.modelType === 'contentType' && schema.draftAndPublish };
  collect(w, schema, data, [], schema.modelType === 'contentType' && schema.localized ? writeLocale : null);
  if (w.out.length === 0) return;
  // per table, the documents named and whether a locale is asked of them (only a localized type's are)
  const byTable = new Map<string, { docs: Set<string>; localized: boolean; published: boolean }>();
  for (const n of w.out) {
    if (n.table === null) continue;
    const entry = byTable.get(n.table) ?? { docs: new Set<string>(), localized: n.locale !== null, published: false };
    byTable.set(n.table, entry);
    entry.docs.add(n.doc);
    if (n.published) entry.published = true;
  }
  const found = new Set<string>();
  for (const [table, { docs, localized, published }] of byTable) {
    const all = [...docs];
    for (let from = 0; from < all.length; from += IDS_PER_LOOKUP) {
      const ids = all.slice(from, from + IDS_PER_LOOKUP);
      const q = tx.selectFrom(table).distinct().where('document_id', 'in', ids);
      const columns = [...(localized ? ['locale'] : []), ...(published ? ['published_at'] : [])];
      const rows: Record<string, unknown>[] = await q.select(['document_id', ...columns]).execute();
      for (const r of rows) {
        const key = `${table}|${String(r['document_id'])}|${localized ? String(r['locale']) : ''}`;
        found.add(key);
        if (published && r['published_at'] !== null && r['published_at'] !== undefined) found.add(`${key}|published`);
      }
    }
  }
  const missing = w.out.find((n) => n.table === null || !found.has(`${n.table}|${n.doc}|${n.locale ?? ''}${n.published ? '|published' : ''}`));
  if (missing) throw notFound(missing.doc, missing.locale);
}
