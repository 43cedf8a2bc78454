// Document writes: create, update (including a new locale version), delete. Each runs in one
// transaction: a document appears whole, with its components, relations and media, or not at all.
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors.js';
import type { Status } from '../query/ast.js';
import type { ContentType, Model } from '../schema/types.js';
import type { Database } from '../database/dialect.js';
import { lockKey } from '../database/key-lock.js';
import { writeTransaction } from '../database/write-transaction.js';
import { newDocumentId } from './document-id.js';
import { formatterFor } from '../values/format-value.js';
import type { WriteData } from './input/types.js';
import { validateForPublish } from './input/validate-publish.js';
import { plainValues } from './input/plain-values.js';
import { samePath } from './input/messages.js';
import { storedComponentValues } from './stored-components.js';
import { inSchemaOrder } from './input/error-order.js';
import { publishDraft } from './publish.js';
import { replaceComponentFields } from './store/children.js';
import { applyData } from './store/apply-data.js';
import { copyChildren, deleteRows } from './store/children.js';
import { DeferredLinks } from './store/deferred-links.js';
import { AfterCommit } from './store/after-commit.js';
import { lockDocument } from './store/document-lock.js';
import { dropLinksToDocument } from './store/links-to-document.js';
import { holdLocale } from './store/locale-held.js';
import { setMedia } from './store/media.js';
import { defaultColumns, insertRow, scalarColumns, type Store, type Tx } from './store/rows.js';
import { notUnique, takenElsewhere, uniqueValues } from './unique-values.js';
import { componentUniqueErrors } from './component-unique.js';
import { NewRows } from './store/new-rows.js';
import { runWrites, type Write } from './store/write-batch.js';
import type { RelationContext } from './store/relations.js';

export interface WriteOptions {
  readonly status: Status;
  /** the target locale on localized types, else null */
  readonly locale: string | null;
  /** whether the caller may add a locale version to an existing document */
  readonly canCreateLocalization: boolean;
  /**
   * runs first inside the write's transaction: a caller's own check that must not race with other
   * writes (it takes a lock, then reads); throwing rolls the write back
   */
  readonly guard?: (tx: Tx) => Promise<void>;
}

export interface WriteServices {
  readonly model: Model;
  readonly database: Database;
  readonly defaultLocale: string;
}

function storedValues(type: ContentType, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of type.attributes.values()) {
    if (a.kind === 'scalar' && a.column in row) out[a.name] = formatterFor(a.type)(row[a.column]);
  }
  return out;
}

async function checkUnique(s: Store, type: ContentType, values: Record<string, unknown>, documentId: string, locale: string | null): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  for (const [a, v] of uniqueValues(type, values)) {
    // one writer of the attribute at a time, from its check to its commit: a check made without
    // the lock lets two writers of one value both pass. Attributes are locked in the model's order
    // (every writer the same), and the read after the lock sees the previous holder's commit.
    await lockKey(s.tx, s.dialect, `${type.uid}.${a.name}:unique`);
    if (await takenElsewhere(s.tx, s.dialect, { type, documentId, locale }, a, v)) errors.push(notUnique(a, v));
  }
  return errors;
}

/** The non-localized values among those sent, and the other locales with a live version they will reach. */
function sharedLive(type: ContentType, sent: Record<string, unknown>, rows: readonly Record<string, unknown>[], locale: string | null): LiveVersion['shared'] {
  const values = Object.fromEntries(Object.entries(sent).filter(([name]) => type.attributes.get(name)?.localized === false));
  const locales = [...new Set(rows.filter((r) => r['published_at'] !== null && r['locale'] !== locale).map((r) => String(r['locale'])))];
  return Object.keys(values).length && locales.length ? { values, locales } : undefined;
}

/** The version a write is about to make live: its document, locale and values, and whether it is new. */
interface LiveVersion {
  readonly type: ContentType;
  readonly values: Record<string, unknown>;
  readonly documentId: string;
  readonly locale: string | null;
  readonly isCreate: boolean;
  /** the non-localized values the write sends, and the other locales whose live versions they reach */
  readonly shared?: { readonly values: Record<string, unknown>; readonly locales: readonly string[] };
}

async function validatePublished(s: Store, model: Model, v: LiveVersion): Promise<void> {
  const errors = validateForPublish(model, v.type, v.values, { isCreate: v.isCreate, draftAndPublish: v.type.draftAndPublish });
  errors.push(...(await checkUnique(s, v.type, v.values, v.documentId, v.locale)));
  errors.push(...(await componentUniqueErrors(s, model, { type: v.type, documentId: v.documentId, locale: v.locale }, v.values)));
  // shared values go live in the document's other locales too (the locale sync): unique there as well
  for (const other of v.shared?.locales ?? []) {
    const values = v.shared!.values;
    const more = [
      ...(await checkUnique(s, v.type, values, v.documentId, other)),
      ...(await componentUniqueErrors(s, model, { type: v.type, documentId: v.documentId, locale: other }, values)),
    ];
    for (const e of more) if (!errors.some((x) => samePath(x.path, e.path))) errors.push(e);
  }
  // the uniqueness errors take their attributes' places among the others
  if (errors.length) throw ValidationError.of(inSchemaOrder(model, v.type, v.values, errors));
}

/**
 * The publish rules' refusal of a draft & publish write, held back: Strapi 5.54 writes the draft first
 * (relations, their positions, components) and checks the version it publishes after, so an error of
 * the draft's write is the one reported. The write goes on to meet it, then this is thrown; the
 * transaction rolls back either way. Without draft & publish the rules come first, as in Strapi.
 */
async function heldBack(type: ContentType, check: () => Promise<void>): Promise<ValidationError | null> {
  try {
    await check();
    return null;
  } catch (e) {
    if (type.draftAndPublish && e instanceof ValidationError) return e;
    throw e;
  }
}

/** Where a new version comes from: a new document, or another locale of an existing one. */
interface NewVersionSource {
  /** the existing row whose shared (non-localized) values the new locale version takes; null for a new document */
  readonly copyFrom: Record<string, unknown> | null;
  /** the published row of the version's locale, when one exists without a draft */
  readonly publishedId: number | null;
}

const timeOf = (v: unknown): number => (v === null || v === undefined ? 0 : new Date(v as string | Date).getTime());
const latest = (rows: readonly Record<string, unknown>[], column: string): Record<string, unknown> | undefined =>
  [...rows].sort((a, b) => timeOf(b[column]) - timeOf(a[column]))[0];

/**
 * The row a new locale version takes its shared (non-localized) values from. A draft takes the drafts'
 * (shared values written to a draft reach every locale's draft, so they agree), where Strapi 5.54 takes
 * the published values and writes them back over the other drafts, losing their unpublished edits. A
 * published write takes the most recently published version's, as Strapi orders them; the latest
 * draft where none is published.
 */
function sharedValuesSource(type: ContentType, rows: readonly Record<string, unknown>[], status: Status): Record<string, unknown> {
  const drafts = rows.filter((r) => r['published_at'] === null);
  const published = rows.filter((r) => r['published_at'] !== null);
  if (type.draftAndPublish && status === 'draft' && drafts.length > 0) return latest(drafts, 'updated_at')!;
  // the rows are the document's, never none
  return latest(published, 'published_at') ?? latest(drafts, 'updated_at')!;
}

/** The id of the published row among a version's rows, or null. */
function publishedIn(rows: readonly Record<string, unknown>[]): number | null {
  const row = rows.find((r) => r['published_at'] !== null);
  return row ? Number(row['id']) : null;
}

/** Reads a written document back on the write's own connection, before its commit. */
export type ReadBack<T> = (tx: Tx, documentId: string) => Promise<T>;

export class DocumentWriter {
  constructor(private readonly services: WriteServices) {}

  private context(tx: Tx, afterCommit: AfterCommit): RelationContext {
    return {
      store: { tx, dialect: this.services.database.dialect, newRows: new NewRows(), afterCommit, files: { found: new Map(), looked: new Set() } },
      model: this.services.model,
      defaultLocale: this.services.defaultLocale,
      found: new Set(),
    };
  }

  /**
   * one transaction, rerun whole when the database refused it for a passing reason (a deadlock, a busy
   * lock); then what it left for after its commit (each attempt leaves its own), before the caller answers
   */
  private async run<T>(work: (tx: Tx, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
    let afterCommit = new AfterCommit();
    const result = await writeTransaction(this.services.database, (tx) => {
      afterCommit = new AfterCommit();
      return work(tx, afterCommit);
    });
    await afterCommit.run(this.services.database);
    return result;
  }

  /** Creates a document; returns its documentId. */
  async create(type: ContentType, data: WriteData, opts: WriteOptions): Promise<string> {
    return this.run((tx, after) => this.createIn(tx, after, type, data, opts));
  }

  /** Creates a document and answers what `readBack` reads of it in the same transaction. */
  async createAndRead<T>(type: ContentType, data: WriteData, opts: WriteOptions, readBack: ReadBack<T>): Promise<T> {
    return this.run(async (tx, after) => readBack(tx, await this.createIn(tx, after, type, data, opts)));
  }

  /**
   * Updates the version of `documentId` in the target locale, creating that locale version when the
   * document exists only in other locales. Returns false when the document doesn't exist at all.
   */
  async update(type: ContentType, documentId: string, data: WriteData, opts: WriteOptions): Promise<boolean> {
    return this.run((tx, after) => this.updateIn(tx, after, type, documentId, data, opts));
  }

  /** `update`, answering what `readBack` reads of the document in the same transaction; 404 when it doesn't exist. */
  async updateAndRead<T>(type: ContentType, documentId: string, data: WriteData, opts: WriteOptions, readBack: ReadBack<T>): Promise<T> {
    return this.run(async (tx, after) => {
      if (!(await this.updateIn(tx, after, type, documentId, data, opts))) throw new NotFoundError('Document not found');
      return readBack(tx, documentId);
    });
  }

  /**
   * Writes a single type's document: updates it, or creates it on the first write. The lookup and
   * the write are one transaction under a lock per type, so first writes that race make one document.
   */
  async putSingle<T>(type: ContentType, data: WriteData, opts: WriteOptions, readBack: ReadBack<T>): Promise<T> {
    return this.run(async (tx, after) => {
      await lockKey(tx, this.services.database.dialect, `${type.uid}:single`);
      const existing = await documentIdOfSingle(tx, type);
      // a document deleted between the lookup and the update is written anew, as a PUT after a DELETE would be
      const updated = existing !== null && (await this.updateIn(tx, after, type, existing, data, opts));
      return readBack(tx, updated ? existing : await this.createIn(tx, after, type, data, opts));
    });
  }

  private async createIn(tx: Tx, afterCommit: AfterCommit, type: ContentType, data: WriteData, opts: WriteOptions): Promise<string> {
    await opts.guard?.(tx);
    const documentId = newDocumentId();
    await this.insertVersion(this.context(tx, afterCommit), type, documentId, data, opts, { copyFrom: null, publishedId: null });
    return documentId;
  }

  private async updateIn(tx: Tx, afterCommit: AfterCommit, type: ContentType, documentId: string, data: WriteData, opts: WriteOptions): Promise<boolean> {
    await opts.guard?.(tx);
    const ctx = this.context(tx, afterCommit);
    await lockDocument(ctx.store, type, documentId);
    const rows = (await tx.selectFrom(type.table).selectAll().where('document_id', '=', documentId).execute()) as Record<string, unknown>[];
    if (rows.length === 0) return false;
    const inLocale = rows.filter((r) => !type.localized || r['locale'] === opts.locale);
    const target = inLocale.find((r) => !type.draftAndPublish || r['published_at'] === null);
    if (!target) {
      if (!opts.canCreateLocalization) throw new ForbiddenError('Forbidden');
      await this.insertVersion(ctx, type, documentId, data, opts, { copyFrom: sharedValuesSource(type, rows, opts.status), publishedId: publishedIn(inLocale) });
      return true;
    }
    await this.updateVersion(ctx, type, target, rows, data, opts);
    return true;
  }

  private async insertVersion(ctx: RelationContext, type: ContentType, documentId: string, data: WriteData, opts: WriteOptions, from: NewVersionSource): Promise<void> {
    const { copyFrom, publishedId } = from;
    const s = ctx.store;
    const now = new Date();
    const locale = type.localized ? opts.locale : null;
    if (locale !== null) await holdLocale(s, locale);
    const publish = !type.draftAndPublish || opts.status === 'published';
    const inherited: Record<string, unknown> = {};
    if (copyFrom) {
      // a new locale version takes the shared (non-localized) values of the existing document
      for (const a of type.attributes.values()) {
        if (a.kind !== 'scalar' || a.localized) continue;
        if (data.scalars.has(a.name)) throw ValidationError.invalidKey(a.name, a.name, 'body');
        inherited[a.column] = copyFrom[a.column];
      }
      for (const a of type.attributes.values()) {
        if (a.localized || a.kind === 'scalar') continue;
        if (data.components.has(a.name) || data.zones.has(a.name) || data.media.has(a.name)) throw ValidationError.invalidKey(a.name, a.name, 'body');
      }
    }
    // the shared components copied from the other locale count towards the publish check, as they are stored with it;
    // a new version's components are all new, whatever id they were sent with (a new locale version's too:
    // the writer ignores the id there, as Strapi 5.54 does), so they are held to their rules whole
    const copied = copyFrom && publish ? await storedComponentValues(s, ctx.model, type, Number(copyFrom['id']), data, true) : {};
    const values = {
      ...storedValues(type, { ...defaultColumns(s.dialect, type, data.scalars), ...inherited }),
      ...copied,
      ...plainValues(ctx.model, type, data, true),
    };
    // a new version is a create, a new locale version too: a required field it leaves out is "must be defined"
    const refused = publish ? await heldBack(type, () => validatePublished(s, ctx.model, { type, values, documentId, locale, isCreate: true })) : null;
    const row = {
      ...defaultColumns(s.dialect, type, data.scalars),
      ...inherited,
      ...scalarColumns(s.dialect, type, data.scalars),
      document_id: documentId,
      locale,
      created_at: s.dialect.toDatetime(now),
      updated_at: s.dialect.toDatetime(now),
      published_at: type.draftAndPublish ? null : s.dialect.toDatetime(now),
    };
    const id = await insertRow(s, type.table, row);
    // a new locale version starts with copies of the shared components, which the write didn't list
    if (copyFrom) await this.copyShared(s, type, Number(copyFrom['id']), id);
    else s.newRows?.created(type.componentTable, id);
    // the new row's link rows wait until its subtree is written, then go together
    const deferred = new DeferredLinks();
    await applyData({ ...ctx, store: { ...s, deferred } }, { id, documentId, locale, schema: type }, data, true);
    await deferred.flush(s);
    if (refused) throw refused;
    if (type.draftAndPublish && publish) await publishDraft(s, ctx.model, type, { id, documentId, locale }, publishedId, now);
  }

  /** Copies the non-localized media and components of another locale's row onto a new one. */
  private async copyShared(s: Store, type: ContentType, fromId: number, toId: number): Promise<void> {
    const shared = [...type.attributes.values()].filter((a) => !a.localized && (a.kind === 'media' || a.kind === 'component' || a.kind === 'dynamiczone'));
    if (shared.length === 0) return;
    await copyChildren(s, this.services.model, type, fromId, toId, new Set(shared.map((a) => a.name)));
  }

  private async updateVersion(
    ctx: RelationContext,
    type: ContentType,
    target: Record<string, unknown>,
    all: Record<string, unknown>[],
    data: WriteData,
    opts: WriteOptions,
  ): Promise<void> {
    const s = ctx.store;
    const now = new Date();
    const id = Number(target['id']);
    const documentId = String(target['document_id']);
    const locale = type.localized ? opts.locale : null;
    const publish = !type.draftAndPublish || opts.status === 'published';
    let refused: ValidationError | null = null;
    if (publish) {
      const sent = plainValues(ctx.model, type, data);
      const merged = { ...storedValues(type, target), ...(await storedComponentValues(s, ctx.model, type, id, data)), ...sent };
      const shared = type.localized ? sharedLive(type, sent, all, locale) : undefined;
      refused = await heldBack(type, () => validatePublished(s, ctx.model, { type, values: merged, documentId, locale, isCreate: false, shared }));
    }
    const cols = {
      ...scalarColumns(s.dialect, type, data.scalars),
      updated_at: s.dialect.toDatetime(now),
      ...(type.draftAndPublish ? {} : { published_at: s.dialect.toDatetime(now) }),
    };
    const publishedId = type.draftAndPublish && publish ? publishedIn(all.filter((r) => !type.localized || r['locale'] === locale)) : null;
    // Non-localized values written here go to the other locales' rows of the status written, as in Strapi
    // 5.54: a draft write to their drafts only (no published version changes), a published write to their
    // published versions (their drafts keep theirs). The published row of this locale is about to become
    // a copy of the draft: no need to sync it first.
    const writtenStatus = (r: Record<string, unknown>): boolean => !type.draftAndPublish || (r['published_at'] !== null) === publish;
    const others = type.localized
      ? all
          .filter(writtenStatus)
          .map((r) => Number(r['id']))
          .filter((i) => i !== id && i !== publishedId)
      : [];
    const writes: Write[] = [s.tx.updateTable(type.table).set(cols).where('id', '=', id)];
    const isShared = (name: string): boolean => type.attributes.get(name)?.localized === false;
    const shared = new Map([...data.scalars].filter(([name]) => isShared(name)));
    // non-localized media, components and zones change the other locales too (below): their updatedAt moves with them, as in Strapi 5.54
    const sharedElsewhere = [...data.media.keys(), ...data.components.keys(), ...data.zones.keys()].some(isShared);
    if (others.length && (shared.size || sharedElsewhere)) {
      // a non-localized attribute written in one locale is written in every locale of the document
      writes.push(
        s.tx
          .updateTable(type.table)
          .set({ ...scalarColumns(s.dialect, type, shared), updated_at: s.dialect.toDatetime(now) })
          .where('id', 'in', others),
      );
    }
    await runWrites(s, writes);
    await applyData(ctx, { id, documentId, locale, schema: type }, data, false);
    for (const [name, refs] of data.media) {
      if (!isShared(name)) continue;
      for (const other of others) await setMedia(s, type.uid, other, name, refs);
    }
    // non-localized components and zones, as written here, go to the same rows as the shared scalars
    const sharedLists = new Set([...data.components.keys(), ...data.zones.keys()].filter(isShared));
    await replaceComponentFields(s, ctx.model, type, id, others, sharedLists);
    if (refused) throw refused;
    if (type.draftAndPublish && publish) await publishDraft(s, ctx.model, type, { id, documentId, locale, values: { ...target, ...cols } }, publishedId, now);
  }

  /**
   * Deletes the document's rows in a locale ('*': all locales; null: the type isn't localized).
   * `condition`: what the document must still match once locked (a DELETE's filters); false deletes nothing.
   */
  async delete(type: ContentType, documentId: string, locale: string | '*' | null, condition?: (tx: Tx) => Promise<boolean>): Promise<boolean> {
    return this.run(async (tx) => {
      const s: Store = { tx, dialect: this.services.database.dialect };
      await lockDocument(s, type, documentId, 'delete');
      if (condition && !(await condition(tx))) return false;
      let q = tx.selectFrom(type.table).select('id').where('document_id', '=', documentId);
      if (type.localized && locale !== null && locale !== '*') q = q.where('locale', '=', locale);
      const ids = (await q.execute()).map((r) => Number(r.id));
      if (ids.length === 0) return false;
      await deleteRows(s, this.services.model, type, ids);
      const left = await tx.selectFrom(type.table).select('id').where('document_id', '=', documentId).limit(1).executeTakeFirst();
      // links pointing at the document go with it; while other locales remain, those showing this one
      await dropLinksToDocument(s, this.services.model, type, documentId, left && type.localized && locale !== null && locale !== '*' ? locale : null);
      return true;
    });
  }
}

export async function documentIdOfSingle(db: Tx, type: ContentType): Promise<string | null> {
  const row = await db.selectFrom(type.table).select('document_id').limit(1).executeTakeFirst();
  return row ? String(row.document_id) : null;
}
