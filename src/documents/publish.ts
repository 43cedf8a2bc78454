// Publishing copies a draft row onto its published row. The published row keeps its id (stable ids:
// the default list order stays defined), takes the draft's scalars and updatedAt, and gets a copy
// of the draft's components, relation links and media links.
import { sql } from 'kysely';
import { rowColumns } from '../database/tables.js';
import type { ContentType, Model } from '../schema/types.js';
import { SYSTEM_COLUMNS as C } from '../schema/types.js';
import { copyChildren, replaceChildren } from './store/children.js';
import { carryInverseLinks, carrySelfLinks } from './store/inverse-links.js';
import { releaseTargetsOfRow } from './store/taken-targets.js';
import type { Store } from './store/rows.js';

export interface DraftRow {
  readonly id: number;
  readonly documentId: string;
  readonly locale: string | null;
  /** the draft's columns as just written, when the caller has them (saves reading the row back) */
  readonly values?: Readonly<Record<string, unknown>>;
}

/** Inserts the published row as a copy of the draft's columns, in one statement. */
async function insertPublished(s: Store, type: ContentType, draftId: number, now: Date): Promise<number> {
  const cols = rowColumns(type).map((c) => c.name);
  const values = cols.map((c) => (c === C.publishedAt ? sql`${s.dialect.toDatetime(now)}`.as(c) : sql.ref(c).as(c)));
  const insert = s.tx
    .insertInto(type.table)
    .columns(cols)
    .expression(s.tx.selectFrom(type.table).select(values).where('id', '=', draftId));
  if (s.dialect.returning) return Number(((await insert.returning('id').executeTakeFirstOrThrow()) as { id: unknown }).id);
  return Number((await insert.executeTakeFirstOrThrow()).insertId);
}

/** `publishedId`: the version's published row, or null when it has none yet. Returns the published row's id. */
export async function publishDraft(s: Store, model: Model, type: ContentType, draft: DraftRow, publishedId: number | null, now: Date): Promise<number> {
  let pubId = publishedId;
  if (pubId === null) {
    pubId = await insertPublished(s, type, draft.id, now);
    await copyChildren(s, model, type, draft.id, pubId);
  } else {
    const row = draft.values ?? ((await s.tx.selectFrom(type.table).selectAll().where('id', '=', draft.id).executeTakeFirstOrThrow()) as Record<string, unknown>);
    const { id: _id, ...values } = row;
    void _id;
    // the row's new columns go with the replacement of its children
    await replaceChildren(s, model, type, draft.id, pubId, [
      s.tx
        .updateTable(type.table)
        .set({ ...values, published_at: s.dialect.toDatetime(now) })
        .where('id', '=', pubId),
    ]);
  }
  await carryInverseLinks(s, model, type, draft.documentId, draft.locale);
  await carrySelfLinks(s, type, draft.documentId, draft.locale);
  // a one-to-one target the draft took from another document is taken from that document's published version now
  await releaseTargetsOfRow(s, model, type, { id: pubId, documentId: draft.documentId });
  return pubId;
}
