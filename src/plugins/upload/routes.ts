// The media library's content-API routes (behaviour.md §9), each one action of
// `plugin::upload.content-api.*`: authenticate → authorize → parse → act → respond with bare
// file objects (the page route alone uses the {data, meta} envelope).
// Multipart parsing is registered inside this plugin's own scope, so the content routes keep
// their body parsers.
import { paginationMeta } from '../../http/pagination-meta.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../auth/authenticate.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Services } from '../../http/services.js';
import { presentMediaWith } from '../../documents/read.js';
import type { ParseContext } from '../../query/parse/context.js';
import { authorize as authorizeCaller } from '../../http/authorize.js';
import { parseContextOf } from '../../http/parse-context.js';
import { resolveUploadConfig, type UploadConfig } from './config.js';
import { deleteFile, updateFileInfo } from './file-changes.js';
import { parseFileInfoList, parseFileInfoUpdate } from './file-info.js';
import { fileType, readFile, readFiles, type FileObject } from './file-row.js';
import { ApiUploadFolder } from './folder.js';
import { linkTarget, targetRows } from './link.js';
import { receiveForm, type ReceivedForm } from './multipart.js';
import { replaceFile } from './replace-file.js';
import { numericId, storagePath, updateId } from './params.js';
import { ImageProcessor } from './image-process.js';
import { AdmittedImages, ImageAdmission, type ImageRunner } from './image-admission.js';
import { createProvider } from './providers/index.js';
import type { UploadProvider } from './provider.js';
import { countFiles, findFiles, parseFilePage, parseFileReadQuery, parseFileQuery, parseFlatRange, populateFiles } from './queries.js';
import { addRelated } from '../../query/sql/file-related.js';
import type { PopulateMap, RelatedSpec } from '../../query/ast.js';
import { PopulateBudget } from '../../query/sql/populate-budget.js';
import type { ReadContext } from '../../query/sql/find.js';
import { serveRead } from '../../http/gated-read.js';
import { registerStaticUploads } from './serve.js';
import { checkRootPages, withoutRootPages } from '../../query/parse/root-pages.js';
import { presentFiles, signFileUrls } from './sign.js';
import { prepareFile, storeFiles, type PreparedFile, type UploadDeps } from './upload-files.js';

const ACTION = 'plugin::upload.content-api';
/** a private provider that doesn't say how long its URLs last is taken to sign for 15 minutes (Strapi's default) */
const DEFAULT_SIGNED_URL_SECONDS = 900;
export const UPLOAD_ACTIONS = {
  find: `${ACTION}.find`,
  findOne: `${ACTION}.findOne`,
  findPage: `${ACTION}.findPage`,
  upload: `${ACTION}.upload`,
  destroy: `${ACTION}.destroy`,
} as const;

export interface UploadOptions {
  /** defaults to the environment (UPLOAD_*, S3_*) and `<project>/public/uploads` */
  readonly config?: UploadConfig;
  /** replaces the configured provider (tests use it to make storage fail) */
  readonly provider?: UploadProvider;
}

/** whose uploads count together against the per-client image cap: the token's, the user's, or the address's */
function clientOf(req: FastifyRequest, caller: Caller): string {
  if (caller.token) return `token:${caller.token.id}`;
  if (caller.user) return `user:${caller.user.id}`;
  return `ip:${req.ip}`;
}

function queryOf(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

export async function registerUpload(app: FastifyInstance, services: Services, options: UploadOptions = {}): Promise<void> {
  const config = options.config ?? resolveUploadConfig(process.env, services.config.dir, services.config.upload);
  const provider = options.provider ?? (await createProvider(config));
  const type = fileType(services.model);
  const folder = new ApiUploadFolder(services.database);
  const read = services.readContext;
  // media populated in content responses are presented by the document reads: signed for a private bucket
  if (provider.isPrivate) {
    presentMediaWith(services.database, { present: (files) => signFileUrls(provider, files) });
    // a stored body must not outlive its signatures: keep bodies at most half a signature's lifetime,
    // so a URL served from the cache still has at least that half to run
    services.responseCache?.limitAge(((provider.signedUrlSeconds ?? DEFAULT_SIGNED_URL_SECONDS) * 1000) / 2);
  }
  const images = new ImageProcessor({ jobTimeoutMs: config.imageTimeoutMs });
  const admission = new ImageAdmission(config.imageLimits);
  app.addHook('onClose', async () => {
    await Promise.all([provider.close(), images.close()]);
  });

  const authorize = (req: FastifyRequest, action: string): Promise<Caller> => authorizeCaller(services, req, action);
  const parseContext = (caller: Caller): ParseContext => parseContextOf(services, caller.ability);
  const deps = (req: FastifyRequest, work: ImageRunner): UploadDeps => ({ config, provider, images: work, database: services.database, fileType: type, log: req.log });
  const present = (files: FileObject[]): Promise<FileObject[]> => presentFiles(provider, files);
  /**
   * A media library read's populated attributes, then its files' `related` lists, within one populate
   * budget, as a content read's populated entries are
   */
  const populated = async (ctx: ReadContext, files: FileObject[], populate: PopulateMap, related: RelatedSpec | null): Promise<void> => {
    const budget = new PopulateBudget(ctx.lease);
    await populateFiles(ctx, type, files, populate, budget);
    if (!related) return;
    await addRelated(ctx.database, services.model, files, related, budget);
    for (const f of files) budget.count(f);
    budget.settle();
  };
  const presentOne = async (file: FileObject): Promise<FileObject> => (await present([file]))[0]!;

  const find = async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = await authorize(req, UPLOAD_ACTIONS.find);
    const query = queryOf(req);
    const q = parseFileQuery(parseContext(caller), type, withoutRootPages(query));
    checkRootPages(query);
    const { start, limit } = parseFlatRange(query);
    return serveRead(services, reply, async (database, lease) => {
      const ctx = { ...read, database, lease };
      const files = await findFiles(ctx, type, q, start, limit);
      await populated(ctx, files, q.populate, q.related);
      return await present(files);
    });
  };

  const findPage = async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = await authorize(req, UPLOAD_ACTIONS.findPage);
    const query = queryOf(req);
    const ctx = parseContext(caller);
    const q = parseFileQuery(ctx, type, query);
    const p = parseFilePage(ctx, query);
    return serveRead(services, reply, async (database, lease) => {
      const ctx = { ...read, database, lease };
      const [data, total] = await Promise.all([findFiles(ctx, type, q, p.start, p.limit), p.withCount ? countFiles(ctx, type, q) : Promise.resolve(null)]);
      await populated(ctx, data, q.populate, q.related);
      return { data: await present(data), meta: { pagination: paginationMeta(p, total) } };
    });
  };

  const findOne = async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = await authorize(req, UPLOAD_ACTIONS.findOne);
    const { related, populate } = parseFileReadQuery(parseContext(caller), type, queryOf(req));
    const id = numericId((req.params as { id: string }).id);
    return serveRead(services, reply, async (database, lease) => {
      const file = id === null ? null : await readFile(database, type, id);
      if (!file) throw new NotFoundError('file.notFound');
      const ctx = { ...read, database, lease };
      await populated(ctx, [file], populate, related);
      return await presentOne(file);
    });
  };

  const destroy = async (req: FastifyRequest, reply: FastifyReply) => {
    await authorize(req, UPLOAD_ACTIONS.destroy);
    const id = numericId((req.params as { id: string }).id);
    const file = id === null ? null : await deleteFile(services.database, type, provider, id, req.log);
    if (!file) throw new NotFoundError('file.notFound');
    return reply.send(await presentOne(file));
  };

  const update = async (id: string, rawInfo: readonly unknown[]): Promise<FileObject> => {
    const n = numericId(id);
    const info = parseFileInfoUpdate(rawInfo);
    const file = n === null ? null : await updateFileInfo(services.database, type, n, info);
    if (!file) throw new NotFoundError('Entity not found');
    return presentOne(file);
  };

  /**
   * `?id=` with a file replaces that file's content. Strapi 5.54's refusals come in its order: several
   * files, a bad fileInfo, an unknown id; then the file is checked as an upload is. `ref`, `refId`
   * and `field` are ignored, as Strapi ignores them here: linking is the content API's job.
   */
  const replace = async (req: FastifyRequest, caller: Caller, id: string, form: ReceivedForm, infos: readonly unknown[], dir: string): Promise<FileObject> => {
    if (form.files.length > 1) throw new ValidationError('Cannot replace a file with multiple ones');
    // read as an upload's fileInfo (a list of one is its entry), not as an information update's
    const info = parseFileInfoList(infos, 1)[0] ?? {};
    const n = numericId(id);
    if (n === null || !(await readFile(services.database, type, n))) throw new NotFoundError('Entity not found');
    const work = new AdmittedImages(images, admission, clientOf(req, caller));
    let prepared: PreparedFile;
    try {
      prepared = await prepareFile(deps(req, work), form.files[0]!, info, dir, 0);
    } finally {
      work.end();
    }
    const file = await replaceFile({ database: services.database, fileType: type, provider, log: req.log }, n, prepared);
    // deleted while the new content was being checked
    if (!file) throw new NotFoundError('Entity not found');
    return presentOne(file);
  };

  const upload = async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = await authorize(req, UPLOAD_ACTIONS.upload);
    const id = updateId(queryOf(req));
    if (!req.isMultipart()) {
      if (id === undefined) throw new ValidationError('Files are empty');
      const body = req.body as Record<string, unknown> | undefined;
      const info = body && typeof body === 'object' && !Array.isArray(body) && body['fileInfo'] !== undefined ? [body['fileInfo']] : [];
      return reply.send(await update(id, info));
    }
    const dir = await mkdtemp(join(config.tmpDir ?? tmpdir(), 'folio-upload-'));
    try {
      const form = await receiveForm(req, dir, config);
      const infos = form.fields.get('fileInfo') ?? [];
      // one file of no bytes is no file, as in Strapi 5.54 (several files are stored, empty or not)
      if (form.files.length === 0 || (form.files.length === 1 && form.files[0]!.size === 0)) {
        if (id === undefined) throw new ValidationError('Files are empty');
        return reply.send(await update(id, infos));
      }
      if (id !== undefined) return reply.send(await replace(req, caller, id, form, infos, dir));
      const fileInfos = parseFileInfoList(infos, form.files.length);
      const link = linkTarget(services.model, caller.ability, form.fields, form.files.length);
      const path = storagePath(form.fields, provider);
      // a wrong refId is a 400 before any image work or storage (checked again inside the transaction)
      if (link) await targetRows({ tx: services.database.db, dialect: services.database.dialect }, link);
      const work = new AdmittedImages(images, admission, clientOf(req, caller));
      const prepared: PreparedFile[] = [];
      try {
        for (const [i, f] of form.files.entries()) prepared.push(await prepareFile(deps(req, work), f, fileInfos[i] ?? {}, dir, i));
      } finally {
        work.end();
      }
      const ids = await storeFiles(deps(req, work), prepared, await folder.get(), link, path);
      return reply.code(201).send(await present(await readFiles(services.database, type, ids)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  await app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: false,
      // the name as sent, directories included, so checkedSentName can refuse what Strapi refuses
      preservePath: true,
      limits: { fileSize: config.sizeLimit, files: config.maxFiles, fields: 100, fieldSize: 1024 * 1024, parts: 1000, headerPairs: 2000 },
    });
    const base = `${services.config.rest.prefix}/upload`;
    scope.get(`${base}/files`, find);
    scope.get(`${base}/files/page`, findPage);
    scope.get(`${base}/files/:id`, findOne);
    scope.delete(`${base}/files/:id`, destroy);
    scope.post(base, upload);
    registerStaticUploads(scope, config.uploadsDir, config.uploadsCacheControl);
  });
}
