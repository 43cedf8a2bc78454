// `populate=related` on the media library: the entries and components each file is linked to,
// read from the morph link table with one statement per linked type (never one per file).
import type { Database } from '../../database/dialect.js';
import { rowShape } from '../../documents/row-shape.js';
import { ValidationError } from '../../errors.js';
import type { Component, ContentType, Model } from '../../schema/types.js';
import type { FileObject } from './file-row.js';

const LINK_TABLE = 'files_related_mph';
const RELATED = 'related';

export interface FilePopulate {
  /** whether `related` was asked for */
  readonly related: boolean;
  /** the rest of the populate value, for the ordinary parser (which rejects unknown keys) */
  readonly rest: unknown;
}

function asked(v: unknown): boolean | null {
  if (v === true || v === 'true' || v === '*') return true;
  if (v === false || v === 'false') return false;
  return null;
}

/** Takes `related` (or `*`, which includes it) out of a files `populate` value. */
export function splitFilePopulate(raw: unknown): FilePopulate {
  if (typeof raw === 'string' || Array.isArray(raw)) {
    const names = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
    const related = names.some((n) => n === RELATED || n === '*');
    const rest = names.filter((n) => n !== RELATED);
    return { related, rest: rest.length === 0 ? undefined : rest };
  }
  if (raw !== null && typeof raw === 'object' && RELATED in raw) {
    const { [RELATED]: value, ...rest } = raw as Record<string, unknown>;
    const on = asked(value);
    if (on === null) throw ValidationError.invalidKey(RELATED, RELATED, 'query', 'populate');
    return { related: on, rest: Object.keys(rest).length === 0 ? undefined : rest };
  }
  return { related: false, rest: raw };
}

interface Link {
  readonly fileId: number;
  readonly relatedId: number;
  readonly type: string;
}

function schemaOf(model: Model, uid: string): ContentType | Component | undefined {
  return model.contentTypes.get(uid) ?? model.components.get(uid);
}

/** Adds `related` to each file: the linked rows' public scalars and `__type`, in link order. */
export async function addRelated(database: Database, model: Model, files: readonly FileObject[]): Promise<void> {
  if (files.length === 0) return;
  const fileIds = files.map((f) => Number(f['id']));
  const links: Link[] = (await database.db.selectFrom(LINK_TABLE).select(['file_id', 'related_id', 'related_type'])
    .where('file_id', 'in', fileIds).orderBy('id').execute())
    .map((r) => ({ fileId: Number(r.file_id), relatedId: Number(r.related_id), type: String(r.related_type) }));
  const idsByType = new Map<string, number[]>();
  for (const l of links) {
    if (!schemaOf(model, l.type)) continue;
    let list = idsByType.get(l.type);
    if (!list) idsByType.set(l.type, (list = []));
    list.push(l.relatedId);
  }
  const rows = new Map<string, Record<string, unknown>>();
  for (const [type, ids] of idsByType) {
    const schema = schemaOf(model, type)!;
    const shape = rowShape(schema, null);
    const base = schema.modelType === 'contentType' ? ['id', 'document_id'] : ['id'];
    const found = await database.db.selectFrom(schema.table).select([...new Set([...base, ...shape.columns])])
      .where('id', 'in', [...new Set(ids)]).execute() as Record<string, unknown>[];
    for (const r of found) rows.set(`${type}#${Number(r['id'])}`, { ...shape.build(r), __type: type });
  }
  const byFile = new Map<number, Record<string, unknown>[]>(fileIds.map((id) => [id, []]));
  for (const l of links) {
    const row = rows.get(`${l.type}#${l.relatedId}`);
    if (row) byFile.get(l.fileId)!.push(row);
  }
  for (const f of files) f['related'] = byFile.get(Number(f['id'])) ?? [];
}
