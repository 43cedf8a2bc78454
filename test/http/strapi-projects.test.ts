// Real public Strapi 5 projects (their schema and config files copied unchanged into test/fixtures,
// licences in test/fixtures/README.md) run on Folio: the config loads as it is, and every content
// type goes through create, read, populate, filter, sort, update (with relations to the other
// types), publish, a second locale and delete, with bodies made from the model alone. Every
// unexpected status is collected, so one run names them all.
import { fileURLToPath } from 'node:url';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import type { ContentType, Model } from '../../src/schema/types.js';
import { SECRETS } from '../config/helpers.js';
import { createBody, deepPopulate, filterAttribute, localeBody } from '../support/model-bodies.js';
import type { Response, TestApp } from '../support/app.js';
import { filePart, png, startUploadApp, type UploadApp } from '../upload/helpers.js';

const PROJECTS = ['launchpad', 'next-starter', 'next-store'] as const;

interface Problem {
  readonly type: string;
  readonly step: string;
  readonly status: number;
  readonly body: string;
}

/** One project's run: the app, its model, and the document made for each type. */
class ProjectRun {
  readonly problems: Problem[] = [];
  readonly documents = new Map<string, string>();
  constructor(
    readonly t: TestApp,
    readonly model: Model,
    /** an uploaded image, linked from every media field */
    readonly fileId: number,
  ) {}

  body(ct: ContentType): Record<string, unknown> {
    return createBody(this.model, ct, { fileId: this.fileId });
  }

  get types(): ContentType[] {
    return [...this.model.contentTypes.values()].filter((ct) => ct.uid.startsWith('api::'));
  }

  /** the path of a type's collection or single document */
  path(ct: ContentType, documentId?: string): string {
    if (ct.kind === 'singleType') return `/api/${ct.singularName}`;
    return documentId === undefined ? `/api/${ct.pluralName}` : `/api/${ct.pluralName}/${documentId}`;
  }

  async expect(ct: ContentType, step: string, r: Promise<Response>, status: number): Promise<Response> {
    const res = await r;
    if (res.status !== status) this.problems.push({ type: ct.uid, step, status: res.status, body: res.text.slice(0, 300) });
    return res;
  }

  /** connects each relation to the document made for its target type, when there is one */
  relations(ct: ContentType): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const a of ct.attributes.values()) {
      if (a.kind !== 'relation') continue;
      const target = this.documents.get(a.target);
      if (target !== undefined) out[a.name] = { connect: [target] };
    }
    return out;
  }
}

async function create(run: ProjectRun, ct: ContentType): Promise<void> {
  const body = { data: run.body(ct) };
  const r = ct.kind === 'singleType' ? run.t.request('PUT', run.path(ct), { body }) : run.t.request('POST', run.path(ct), { body });
  const res = await run.expect(ct, 'create', r, ct.kind === 'singleType' ? 200 : 201);
  const id = (res.body as { data?: { documentId?: string } } | undefined)?.data?.documentId;
  if (typeof id === 'string') run.documents.set(ct.uid, id);
}

async function readAndQuery(run: ProjectRun, ct: ContentType): Promise<void> {
  const id = run.documents.get(ct.uid);
  if (id === undefined) return;
  const one = ct.kind === 'singleType' ? run.path(ct) : run.path(ct, id);
  await run.expect(ct, 'read', run.t.get(one), 200);
  await run.expect(ct, 'populate=*', run.t.get(`${one}?populate=*`), 200);
  const deep = qs.stringify({ populate: deepPopulate(run.model, ct) }, { encodeValuesOnly: true });
  await run.expect(ct, 'deep populate', run.t.get(`${one}?${deep}`), 200);
  if (ct.kind === 'collectionType') {
    const a = filterAttribute(ct);
    const read = await run.t.get(run.path(ct, id));
    const value = a ? (read.body as { data?: Record<string, unknown> }).data?.[a.name] : id;
    const filters = a ? { [a.name]: { $eq: value } } : { documentId: { $eq: id } };
    const query = qs.stringify({ filters, sort: a ? `${a.name}:desc` : 'id:desc', populate: '*' }, { encodeValuesOnly: true });
    const list = await run.expect(ct, 'filter and sort', run.t.get(`${run.path(ct)}?${query}`), 200);
    const ids = ((list.body as { data?: { documentId: string }[] } | undefined)?.data ?? []).map((d) => d.documentId);
    if (!ids.includes(id)) run.problems.push({ type: ct.uid, step: 'filter finds the document', status: list.status, body: list.text.slice(0, 300) });
  }
}

async function updateAndPublish(run: ProjectRun, ct: ContentType): Promise<void> {
  const id = run.documents.get(ct.uid);
  if (id === undefined) return;
  const target = ct.kind === 'singleType' ? run.path(ct) : run.path(ct, id);
  const data = { ...run.body(ct), ...run.relations(ct) };
  await run.expect(ct, 'update with relations', run.t.request('PUT', target, { body: { data } }), 200);
  const deep = qs.stringify({ populate: deepPopulate(run.model, ct) }, { encodeValuesOnly: true });
  const read = await run.expect(ct, 'populate after update', run.t.get(`${target}?${deep}`), 200);
  const got = (read.body as { data?: Record<string, unknown> } | undefined)?.data ?? {};
  // each component, zone entry and relation written comes back through the populate
  for (const key of Object.keys(data)) {
    const v = got[key];
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0))
      run.problems.push({ type: ct.uid, step: `populated ${key}`, status: read.status, body: JSON.stringify(v) ?? 'undefined' });
  }
  if (ct.draftAndPublish) {
    await run.expect(ct, 'draft update', run.t.request('PUT', `${target}?status=draft`, { body: { data: run.body(ct) } }), 200);
    await run.expect(ct, 'read draft', run.t.get(`${target}?status=draft&populate=*`), 200);
    await run.expect(ct, 'publish', run.t.request('PUT', `${target}?status=published`, { body: { data: {} } }), 200);
  }
  if (ct.localized) {
    await run.expect(ct, 'new locale', run.t.request('PUT', `${target}?locale=fr`, { body: { data: localeBody(run.model, ct, { fileId: run.fileId }) } }), 200);
    await run.expect(ct, 'read locale', run.t.get(`${target}?locale=fr&populate=*`), 200);
    if (ct.kind === 'collectionType') await run.expect(ct, 'list locale', run.t.get(`${run.path(ct)}?locale=fr`), 200);
  }
}

async function remove(run: ProjectRun, ct: ContentType): Promise<void> {
  const id = run.documents.get(ct.uid);
  if (id === undefined) return;
  const target = ct.kind === 'singleType' ? run.path(ct) : run.path(ct, id);
  if (ct.localized) await run.expect(ct, 'delete locale', run.t.request('DELETE', `${target}?locale=fr`), 204);
  await run.expect(ct, 'delete', run.t.request('DELETE', target), 204);
  await run.expect(ct, 'gone', run.t.get(target), 404);
}

describe.each(PROJECTS)('the Strapi 5 project %s', (name) => {
  const dir = fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
  let app: UploadApp;
  let run: ProjectRun;
  beforeAll(async () => {
    // the project's own config files (TypeScript ones included) decide the REST settings
    const loaded = await loadConfig(dir, { ...SECRETS, NODE_ENV: 'production' }, { writeEnvFile: false });
    app = await startUploadApp({}, { dir, rest: loaded.config.rest });
    const file = await app.upload([filePart(await png(8, 8), 'pixel.png', 'image/png')]);
    expect(file.status, file.text).toBe(201);
    run = new ProjectRun(app.t, app.t.app.model, (file.body as { id: number }[])[0]?.id ?? 0);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('every content type is created, read, populated, filtered, updated, published, localized and deleted', async () => {
    expect(run.types.length).toBeGreaterThan(0);
    for (const ct of run.types) await create(run, ct);
    for (const ct of run.types) await readAndQuery(run, ct);
    for (const ct of run.types) await updateAndPublish(run, ct);
    for (const ct of run.types) await remove(run, ct);
    expect(run.problems).toEqual([]);
    expect([...run.documents.keys()].sort()).toEqual(run.types.map((ct) => ct.uid).sort());
  });
});

// The queries the starter's Next.js front end sends (its page, landing page and blog loaders), as its qs calls build them.
describe('the next-starter front end queries', () => {
  const dir = fileURLToPath(new URL('../fixtures/next-starter', import.meta.url));
  let app: UploadApp;
  let run: ProjectRun;
  beforeAll(async () => {
    app = await startUploadApp({}, { dir });
    const file = await app.upload([filePart(await png(8, 8), 'pixel.png', 'image/png')]);
    run = new ProjectRun(app.t, app.t.app.model, (file.body as { id: number }[])[0]?.id ?? 0);
  });
  afterAll(async () => {
    await app?.close();
  });

  const image = { fields: ['url', 'alternativeText', 'name'] };
  const blocks = {
    on: {
      'layout.hero': { populate: { image, buttonLink: { populate: '*' }, topLink: { populate: '*' } } },
      'layout.card-grid': { populate: '*' },
      'layout.section-heading': { populate: '*' },
      'layout.content-with-image': { populate: { image } },
      'layout.price-grid': { populate: { priceCard: { populate: '*' } } },
    },
  };
  const typeOf = (uid: string): ContentType => run.model.contentTypes.get(uid) as ContentType;

  it('a page by slug and the landing page come back with every block and its nested components', async () => {
    const data = run.body(typeOf('api::page.page'));
    const page = await app.t.request('POST', '/api/pages', { body: { data } });
    expect(page.status, page.text).toBe(201);
    const slug = page.body.data.slug as string;
    const r = await app.t.get(`/api/pages?${qs.stringify({ populate: { blocks: { on: { ...blocks.on, 'layout.price-grid': undefined } } }, filters: { slug } })}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((d: { slug: string }) => d.slug)).toEqual([slug]);
    const sent = data['blocks'] as { __component: string }[];
    // the page loader names four of the zone's components: an entry of another (price-grid) is left out, as in Strapi
    const named = sent.map((b) => b.__component).filter((c) => c !== 'layout.price-grid');
    expect(named.length).toBeGreaterThan(0);
    expect(r.body.data[0].blocks.map((b: { __component: string }) => b.__component)).toEqual(named);
    const hero = r.body.data[0].blocks.find((b: { __component: string }) => b.__component === 'layout.hero');
    expect(Object.keys(hero.image).sort()).toEqual(['alternativeText', 'documentId', 'id', 'name', 'url']);
    expect(hero.buttonLink.length).toBeGreaterThan(0);
    const landingData = run.body(typeOf('api::landing-page.landing-page'));
    const landing = await app.t.request('PUT', '/api/landing-page', { body: { data: landingData } });
    expect(landing.status, landing.text).toBe(200);
    const l = await app.t.get(`/api/landing-page?${qs.stringify({ populate: { blocks } })}`);
    expect(l.status, l.text).toBe(200);
    const priceGrid = l.body.data.blocks.find((b: { __component: string }) => b.__component === 'layout.price-grid');
    expect(l.body.data.blocks.length).toBe((landingData['blocks'] as unknown[]).length);
    expect(priceGrid.priceCard.length).toBeGreaterThan(0);
  });

  it("the blog list: an empty category filter, $containsi over three fields and the loader's pagination", async () => {
    const post = await app.t.request('POST', '/api/posts', { body: { data: { ...run.body(typeOf('api::post.post')), title: 'Strapi on Folio' } } });
    expect(post.status, post.text).toBe(201);
    const query = (category: string, text: string) =>
      qs.stringify({
        populate: { image, category: { fields: ['text'] } },
        filters: {
          category: category.length !== 0 ? { text: { $eq: category } } : {},
          $or: [{ title: { $containsi: text } }, { description: { $containsi: text } }, { content: { $containsi: text } }],
        },
        pagination: { pageSize: 9, page: 1 },
      });
    const all = await app.t.get(`/api/posts?${query('', '')}`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.meta.pagination).toEqual({ page: 1, pageSize: 9, pageCount: 1, total: 1 });
    const found = await app.t.get(`/api/posts?${query('', 'on folio')}`);
    expect(found.body.data.map((d: { title: string }) => d.title)).toEqual(['Strapi on Folio']);
    const none = await app.t.get(`/api/posts?${query('no such category', '')}`);
    expect(none.status, none.text).toBe(200);
    expect(none.body.data).toEqual([]);
  });
});

// The next-store front end's cart, as its actions and loaders send it: a signed-in user adds an
// order item (the user by numeric id, the product by documentId) and lists their own items.
describe('the next-store cart as its front end runs it', () => {
  const dir = fileURLToPath(new URL('../fixtures/next-store', import.meta.url));
  let app: UploadApp;
  beforeAll(async () => {
    app = await startUploadApp({}, { dir });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('filters through the user need the users find permission, as in Strapi; with it the cart works', async () => {
    const t = app.t;
    await t.app.services.roles.grant('authenticated', ['api::order-item.order-item.find', 'api::order-item.order-item.create', 'api::product.product.find']);
    const reg = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'ann', email: 'ann@example.com', password: 'secret123' } });
    expect(reg.status, reg.text).toBe(200);
    const jwt = reg.body.jwt as string;
    const userId = reg.body.user.id as number;
    const product = await t.request('POST', '/api/products', { body: { data: { name: 'Pizza', priceInCents: 1200, slug: 'pizza' } } });
    expect(product.status, product.text).toBe(201);
    const mine = { filters: { user: { id: { $eq: userId } } } };
    const add = (query: string) =>
      t.request('POST', `/api/order-items?${query}`, { token: jwt, body: { data: { quantity: 2, user: userId, item: { connect: [product.body.data.documentId] } } } });
    const refused = await add(qs.stringify({ ...mine, populate: { item: { fields: ['name', 'priceInCents'] } } }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key user',
      details: { key: 'user', path: 'user', source: 'query', param: 'filters' },
    });
    await t.app.services.roles.grant('authenticated', ['plugin::users-permissions.user.find']);
    const added = await add(qs.stringify({ ...mine, populate: { item: { fields: ['name', 'priceInCents'] } } }));
    expect(added.status, added.text).toBe(201);
    expect(added.body.data).toMatchObject({ quantity: 2, item: { documentId: product.body.data.documentId, name: 'Pizza', priceInCents: 1200 } });
    const list = await t.get(`/api/order-items?${qs.stringify({ ...mine, populate: { item: { populate: { image: { fields: ['url', 'alternativeText'] } } } } })}`, { token: jwt });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((d: { documentId: string }) => d.documentId)).toEqual([added.body.data.documentId]);
    expect(list.body.data[0].item).toMatchObject({ name: 'Pizza', image: null });
  });
});
