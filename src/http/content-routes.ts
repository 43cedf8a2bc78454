// The generated content endpoints: one pipeline for every route —
// authenticate → authorize the action → parse & validate the query (and body) against the model →
// document service → envelope. Nothing reaches the database before every check has passed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../errors.js';
import type { ContentType, Model } from '../schema/types.js';
import type { Ability } from '../auth/ability.js';
import type { FindQuery } from '../query/ast.js';
import { filtersChooseLocale } from '../query/parse/locale-filter.js';
import { parseFindQuery, parseLocale } from '../query/parse/find-query.js';
import { readWriteData } from '../documents/input/check-write-data.js';
import { checkKeys } from '../documents/input/check-keys.js';
import { withUniquenessErrors } from '../documents/unique-beside-errors.js';
import { refuseMissingDocuments } from '../documents/store/missing-documents.js';
import { readUnpaged, withoutPaging } from '../query/parse/root-pages.js';
import { storedData, type WriteTarget } from '../documents/input/strapi-echo.js';
import { fieldErrorsOf, hasRootError, MissingRelationsError } from '../documents/store/missing-relations.js';
import { missingRowIds } from '../documents/store/missing-row-ids.js';
import { readDocument, readDocuments, type DocumentObject } from '../documents/read.js';
import { documentIdOfSingle, type ReadBack } from '../documents/write.js';
import { onConnection } from '../database/write-transaction.js';
import type { Caller } from '../auth/authenticate.js';
import type { Services } from './services.js';
import { toV4 } from './v4-format.js';
import { paginationMeta } from './pagination-meta.js';
import { cachedRead } from './cached-read.js';
import { sendBytes } from './send-json.js';
import { sendGatedValue } from './gated-read.js';
import { readAfterCommit, readInWrite, type WriteReadBack } from './write-read-back.js';
import type { ReadLease } from '../query/heavy-reads.js';
import { authorize } from './authorize.js';
import { parseContextOf } from './parse-context.js';
import { deleteCondition } from './delete-condition.js';

type Action = 'find' | 'findOne' | 'create' | 'update' | 'delete';

interface Call {
  readonly caller: Caller;
  readonly query: Record<string, unknown>;
}

function envelope(req: FastifyRequest, services: Services, type: ContentType, data: DocumentObject | DocumentObject[] | null, meta: Record<string, unknown>): unknown {
  if (req.headers['strapi-response-format'] === 'v4') return { data: toV4(services.model, type, data), meta };
  return { data, meta };
}

function queryOf(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

/** Whether `?locale=` names a code this process doesn't know (yet): a string, or one in a list. */
function namesUnknownLocale(codes: ReadonlySet<string>, raw: unknown): boolean {
  if (typeof raw === 'string') return raw !== '' && raw !== '*' && !codes.has(raw);
  return Array.isArray(raw) && raw.some((c) => typeof c === 'string' && c !== '*' && !codes.has(c));
}

async function begin(services: Services, req: FastifyRequest, type: ContentType, action: Action): Promise<Call> {
  const caller = await authorize(services, req, `${type.uid}.${action}`);
  const query = queryOf(req);
  // a locale added with the CLI since this process read them is known once read again, not refused
  if (namesUnknownLocale(services.locales.codes(), query['locale'])) await services.locales.refresh();
  return { caller, query };
}

function parse(services: Services, call: Call, type: ContentType): FindQuery {
  return parseFindQuery(parseContextOf(services, call.caller.ability), type, call.query);
}

/**
 * The query of a one-document read or delete. Strapi 5.54 pages nothing there: it checks root
 * `page`/`pageSize` and `start`/`limit` as its query converter does (after the rest of the query) and
 * leaves the `pagination` object unread, where Folio refused any root page and read the object as a list's.
 */
function parseOne(services: Services, call: Call, type: ContentType): FindQuery {
  return readUnpaged(call.query, (rest) => parseFindQuery(parseContextOf(services, call.caller.ability), type, rest));
}

/**
 * A write's query. Its filters are checked but select nothing: Strapi reads the written document back
 * whatever they say, and a `filters[locale]` doesn't choose the locale written (the parameter does).
 */
function parseWrite(services: Services, call: Call, type: ContentType): FindQuery {
  const raw = oneLocaleParam(type, call.query);
  // paging parameters mean nothing to a write and Strapi 5.54 doesn't read them there, nor the deprecated
  // hasPublishedVersion (a bad `publicationFilter` it does refuse)
  const query = { ...withoutPaging(call.query) };
  delete query['hasPublishedVersion'];
  const q = parse(services, { ...call, query }, type);
  // nor do `_q` and `publicationFilter` choose what is read back: the answer is the written document
  return { ...q, where: null, search: null, publicationFilter: null, locale: parseLocale(parseContextOf(services, call.caller.ability), type, raw) };
}

/**
 * The `locale` of a write or a one-document read: one version, so a list or an object is refused before
 * anything else is read, as Strapi words it.
 */
function oneLocaleParam(type: ContentType, query: Record<string, unknown>): unknown {
  const raw = query['locale'];
  if (type.localized && raw !== undefined && typeof raw !== 'string') throw notOneLocale(raw);
  return raw;
}

function notOneLocale(raw: unknown): ValidationError {
  return new ValidationError(`Invalid locale param ${asText(raw)} provided. Document locales must be strings.`);
}

/** A query value as JavaScript's String() shows it, also for objects without a prototype (qs makes those). */
function asText(v: unknown): string {
  if (Array.isArray(v)) return v.map(asText).join(',');
  return typeof v === 'object' && v !== null ? '[object Object]' : String(v);
}

/**
 * The locale a write goes to. Strapi 5.54's document service refuses `*` after its controller has
 * checked the body (a missing `data`, bad keys): those errors come first, so the body is checked here.
 */
function writeLocale(type: ContentType, q: FindQuery, raw: Record<string, unknown> | unknown[], model: Model, ability: Ability): string | null {
  if (!type.localized) return null;
  if (q.locale === '*' && !Array.isArray(raw)) checkKeys(model, ability, type, raw);
  if (q.locale === '*' || Array.isArray(q.locale)) throw notOneLocale(q.locale);
  return q.locale as string;
}

/** The body's `data`: an object, or a list (which checkWriteData refuses with Strapi's message). */
function bodyData(req: FastifyRequest): Record<string, unknown> | unknown[] {
  const body = req.body as Record<string, unknown> | undefined;
  const data = body && typeof body === 'object' && !Array.isArray(body) ? body['data'] : undefined;
  if (typeof data !== 'object' || data === null) {
    throw new ValidationError('Missing "data" payload in the request body');
  }
  return data as Record<string, unknown> | unknown[];
}

/**
 * Runs a write whose values `refused` may already fail, answering its errors as Strapi does: the
 * documents a body names are looked up before any value is checked, so one naming no document is the
 * error a client gets first; missing relation or file ids come with the data Strapi echoes
 * (input/strapi-echo.ts).
 */
async function writing<T>(
  services: Services,
  type: ContentType,
  raw: Record<string, unknown> | unknown[],
  write: WriteTarget,
  refused: ValidationError | null,
  run: () => Promise<T>,
  /** an update's question whether its document exists: Strapi answers 404 before it checks any value */
  exists?: () => Promise<boolean>,
): Promise<T> {
  try {
    if (refused) throw refused;
    return await run();
  } catch (e) {
    // a key refused by the writer (a shared field sent to a new locale) is a key error, named before
    if (e instanceof ValidationError && !Object.hasOwn(e.details ?? {}, 'key')) {
      await refuseMissingDocuments(services.database.db, services.model, type, raw, write.locale, services.locales.defaultCode());
      if (exists && !(await exists())) throw new NotFoundError('Document not found');
    }
    if (Array.isArray(raw)) throw e;
    if (e instanceof MissingRelationsError) {
      // the writer meets relations in the body's order; Strapi reports the first target type in schema order
      const first = (await missingRowIds(services.database.db, services.model, type, raw)) ?? e;
      throw first.withValue(storedData(services.model, type, raw, write));
    }
    const fields = e instanceof ValidationError ? fieldErrorsOf(e) : undefined;
    // the checks Strapi runs in the pass that also finds missing row ids: a draft's (or, without
    // draft & publish, all of them); a publish-only error or a date it can't convert comes after.
    // A zone entry it can't place is its own root error instead (zone-errors.ts).
    const samePass = e === refused || !type.draftAndPublish;
    if (fields !== undefined || (refused !== null && e === refused && !hasRootError(refused))) {
      const missing = await missingRowIds(services.database.db, services.model, type, raw);
      if (missing && samePass && fields) throw missing.besides(fields, storedData(services.model, type, raw, write));
      if (missing) throw missing.withValue(storedData(services.model, type, raw, write));
    }
    throw e;
  }
}

function single(q: FindQuery): FindQuery {
  return { ...q, pagination: { mode: 'offset', start: 0, limit: 1, withCount: false } };
}

export function registerContentRoutes(app: FastifyInstance, services: Services): void {
  const prefix = services.config.rest.prefix;
  const read = services.readContext;
  // a write answers with its document as read on its own connection before the commit: read after
  // it, the answer queued for a pooled connection behind the other writes of a burst. Unless it is
  // heavy: then it is read after the commit, holding a heavy-read slot (write-read-back.ts).
  const readBack =
    (type: ContentType, q: FindQuery, answer: { lease: ReadLease }): ReadBack<WriteReadBack<DocumentObject | null>> =>
    (tx, documentId) => {
      // each run of the transaction (a rerun after a deadlock) reads with a lease of its own
      const lease = (answer.lease = services.heavyReads.lease());
      const database = onConnection(read.database, tx);
      return readInWrite(documentId, (light) => readDocument(light ? { ...read, database, lease } : { ...read, database }, type, documentId, single(q)));
    };
  const written = async (req: FastifyRequest, reply: FastifyReply, type: ContentType, q: FindQuery, lease: ReadLease, back: WriteReadBack<DocumentObject | null>) => {
    const doc = await readAfterCommit(
      services,
      reply.raw,
      lease,
      back,
      (documentId) => (database, lease) => readDocument({ ...read, database, lease }, type, documentId, single(q)),
    );
    // committed: a 503 for a slot waited for too long would tell the client to send the write again
    return sendGatedValue(reply, () => envelope(req, services, type, doc, {}), lease, true);
  };

  const find = (type: ContentType) => async (req: FastifyRequest, reply: FastifyReply) => {
    const call = await begin(services, req, type, 'find');
    const cached = await cachedRead(services, req, call.caller);
    if (cached.hit !== undefined) return sendBytes(reply, cached.hit);
    return cached.serve(reply, async (database, lease) => {
      const q = parse(services, call, type);
      const { data, total } = await readDocuments({ ...read, database, lease }, type, q);
      return envelope(req, services, type, data, { pagination: paginationMeta(q.pagination, total) });
    });
  };

  const findOne = (type: ContentType, isSingle: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const call = await begin(services, req, type, isSingle ? 'find' : 'findOne');
    const cached = await cachedRead(services, req, call.caller);
    if (cached.hit !== undefined) return sendBytes(reply, cached.hit);
    return cached.serve(reply, async (database, lease) => {
      oneLocaleParam(type, call.query);
      const q = parseOne(services, call, type);
      const id = isSingle ? await documentIdOfSingle(database.db, type) : (req.params as { documentId: string }).documentId;
      // locale=* names no one version; a filter on locale picks it instead (the first that matches, as Strapi's findOne)
      const anyLocale = q.locale === '*' && !filtersChooseLocale(type, call.query['filters']);
      const doc = id === null || anyLocale ? null : await readDocument({ ...read, database, lease }, type, id, single(q));
      if (!doc) throw new NotFoundError('Document not found');
      return envelope(req, services, type, doc, {});
    });
  };

  const create = (type: ContentType) => async (req: FastifyRequest, reply: FastifyReply) => {
    const call = await begin(services, req, type, 'create');
    const q = parseWrite(services, call, type);
    const raw = bodyData(req);
    const locale = writeLocale(type, q, raw, services.model, call.caller.ability);
    const write = { create: true, locale, singlePass: !type.draftAndPublish };
    const read = readWriteData({ model: services.model, ability: call.caller.ability, write }, type, raw);
    const { data } = read;
    const refused = read.refused && (await withUniquenessErrors(read.refused, { ...services, raw, data, scope: { type, documentId: '', locale } }));
    const answer = { lease: services.heavyReads.lease() };
    const back = await writing(services, type, raw, write, refused, () =>
      services.writer.createAndRead(type, data, { status: q.status, locale, canCreateLocalization: true }, readBack(type, q, answer)),
    );
    return written(req, reply.code(201), type, q, answer.lease, back);
  };

  const update = (type: ContentType, isSingle: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const call = await begin(services, req, type, 'update');
    const q = parseWrite(services, call, type);
    const raw = bodyData(req);
    const locale = writeLocale(type, q, raw, services.model, call.caller.ability);
    // a draft & publish single type's first PUT creates it, and is checked as a create (its required lists)
    const firstSingle = isSingle && type.draftAndPublish && (await documentIdOfSingle(services.database.db, type)) === null;
    const write = { create: firstSingle, locale, singlePass: !type.draftAndPublish };
    const read = readWriteData({ model: services.model, ability: call.caller.ability, write }, type, raw);
    const { data } = read;
    const opts = { status: q.status, locale, canCreateLocalization: call.caller.ability.can(`${type.uid}.createLocalization`) };
    const documentId = (req.params as { documentId?: string }).documentId ?? '';
    const refused =
      read.refused &&
      (await withUniquenessErrors(read.refused, {
        ...services,
        raw,
        data,
        scope: { type, documentId: isSingle ? ((await documentIdOfSingle(services.database.db, type)) ?? '') : documentId, locale },
      }));
    // in any locale: a document that exists gets a new locale version rather than a 404
    const exists = async () => (await services.database.db.selectFrom(type.table).select('id').where('document_id', '=', documentId).limit(1).executeTakeFirst()) !== undefined;
    // a single type's lookup and first create are one transaction with the write (writer.putSingle)
    const answer = { lease: services.heavyReads.lease() };
    const back = await writing(
      services,
      type,
      raw,
      write,
      refused,
      () =>
        isSingle ? services.writer.putSingle(type, data, opts, readBack(type, q, answer)) : services.writer.updateAndRead(type, documentId, data, opts, readBack(type, q, answer)),
      isSingle ? undefined : exists,
    );
    return written(req, reply, type, q, answer.lease, back);
  };

  const remove = (type: ContentType, isSingle: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const call = await begin(services, req, type, 'delete');
    const q = parseOne(services, call, type);
    if (type.draftAndPublish && call.query['status'] !== undefined && q.status === 'draft') {
      throw new ValidationError('DELETE removes every version of the document in the locale; deleting only the draft is not supported (drop status=draft)');
    }
    if (Array.isArray(q.locale)) throw new ValidationError('Invalid locale param: a delete takes one locale, or * for every locale');
    const documentId = isSingle ? await documentIdOfSingle(services.database.db, type) : (req.params as { documentId: string }).documentId;
    const condition = documentId === null ? undefined : deleteCondition(read, type, documentId, q);
    const deleted = documentId !== null && (await services.writer.delete(type, documentId, type.localized ? (q.locale as string | '*') : null, condition));
    if (!deleted) throw new NotFoundError('Document not found');
    return reply.code(204).send();
  };

  for (const type of services.model.contentTypes.values()) {
    if (type.origin !== 'api') continue;
    if (type.kind === 'collectionType') {
      const base = `${prefix}/${type.pluralName}`;
      app.get(base, find(type));
      app.post(base, create(type));
      app.get(`${base}/:documentId`, findOne(type, false));
      app.put(`${base}/:documentId`, update(type, false));
      app.delete(`${base}/:documentId`, remove(type, false));
    } else {
      const base = `${prefix}/${type.singularName}`;
      app.get(base, findOne(type, true));
      app.put(base, update(type, true));
      app.delete(base, remove(type, true));
    }
  }
}
