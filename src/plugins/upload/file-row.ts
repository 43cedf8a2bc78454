// File rows: written from a stored upload, read back into the objects the API returns. Column
// names come from the `plugin::upload.file` model, so the table and the responses can't drift.
import type { Database } from '../../database/dialect.js';
import { newDocumentId } from '../../documents/document-id.js';
import { rowShape } from '../../values/row-shape.js';
import { defaultColumns, insertRow, scalarColumns, type Store, type Tx } from '../../documents/store/rows.js';
import { FILE_UID, type ContentType, type Model } from '../../schema/types.js';
import type { FocalPoint } from './file-info.js';

export const FILES_TABLE = 'files';

/** One entry of `formats`, in Strapi's key order. */
export interface FormatEntry {
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly path: string | null;
  readonly width: number;
  readonly height: number;
  /** kilobytes, 2 decimals */
  readonly size: number;
  readonly sizeInBytes: number;
  readonly url: string;
}

/** The attributes of a new file row, by attribute name. */
export interface NewFile {
  readonly name: string;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly focalPoint: FocalPoint | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly formats: Readonly<Record<string, FormatEntry>> | null;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly size: number;
  readonly url: string;
  readonly previewUrl: null;
  readonly provider: string;
  readonly provider_metadata: null;
  readonly folderPath: string;
}

export type FileObject = Record<string, unknown>;

/** Bytes → kilobytes with 2 decimals, the unit of `size`. */
export function kilobytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}

export function fileType(model: Model): ContentType {
  const t = model.contentTypes.get(FILE_UID);
  if (!t) throw new Error(`${FILE_UID} is missing from the model`);
  return t;
}

export async function insertFile(s: Store, type: ContentType, file: NewFile, now: Date): Promise<number> {
  const given = new Map(Object.entries(file));
  const at = s.dialect.toDatetime(now);
  return insertRow(s, type.table, {
    // attributes an upload extension adds start at their schema default, as Strapi's file create gives them
    ...defaultColumns(s.dialect, type, given),
    ...scalarColumns(s.dialect, type, given),
    document_id: newDocumentId(),
    created_at: at,
    updated_at: at,
    published_at: at,
    locale: null,
  });
}

/**
 * Reads file rows by id into API objects (every public attribute), in the order of `ids`. `tx`: read
 * inside a write's transaction, which sees that write and holds the rows it locked.
 */
export async function readFiles(database: Database, type: ContentType, ids: readonly number[], tx?: Tx): Promise<FileObject[]> {
  if (ids.length === 0) return [];
  const shape = rowShape(type, null);
  const rows = (await (tx ?? database.db)
    .selectFrom(type.table)
    .select(['id', 'document_id', ...shape.columns])
    .where('id', 'in', [...ids])
    .execute()) as Record<string, unknown>[];
  const byId = new Map(rows.map((r) => [Number(r['id']), shape.build(r)]));
  return ids.flatMap((id): FileObject[] => {
    const f = byId.get(id);
    return f ? [f] : [];
  });
}

export async function readFile(database: Database, type: ContentType, id: number, tx?: Tx): Promise<FileObject | null> {
  return (await readFiles(database, type, [id], tx))[0] ?? null;
}
