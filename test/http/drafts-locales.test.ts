import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

async function post(path: string, data: Record<string, unknown>): Promise<{ documentId: string; id: number; publishedAt: string | null }> {
  const r = await t.request('POST', path, { body: { data } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data;
}

async function put(path: string, data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await t.request('PUT', path, { body: { data } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

const docIds = (r: { body: { data: { documentId: string }[] } }): string[] => r.body.data.map((d) => d.documentId).sort();

describe('draft & publish transitions', () => {
  it('POST without status publishes; with status=draft only a draft exists', async () => {
    const pub = await post('/api/tags', { label: 'pub' });
    expect(pub.publishedAt).not.toBeNull();
    const draft = await post('/api/tags?status=draft', { label: 'draft' });
    expect(draft.publishedAt).toBeNull();
    expect((await t.get(`/api/tags/${draft.documentId}`)).status).toBe(404);
    expect((await t.get(`/api/tags/${draft.documentId}?status=draft`)).body.data.label).toBe('draft');
    const list = await t.get('/api/tags');
    expect(list.body.data.map((x: { label: string }) => x.label)).toEqual(['pub']);
  });

  it('PUT with status=draft leaves the published version untouched; PUT without status publishes', async () => {
    const d = await post('/api/tags', { label: 'v1' });
    await put(`/api/tags/${d.documentId}?status=draft`, { label: 'v2' });
    expect((await t.get(`/api/tags/${d.documentId}`)).body.data.label).toBe('v1');
    expect((await t.get(`/api/tags/${d.documentId}?status=draft`)).body.data.label).toBe('v2');
    const published = await put(`/api/tags/${d.documentId}`, {});
    expect(published['label']).toBe('v2');
    expect((await t.get(`/api/tags/${d.documentId}`)).body.data.label).toBe('v2');
  });

  it('PUT with status=published publishes as the default does: the pending draft edit and the body go live together', async () => {
    const d = await post('/api/tags', { label: 'p1', color: '#000001' });
    await put(`/api/tags/${d.documentId}?status=draft`, { label: 'p2' });
    const r = await t.request('PUT', `/api/tags/${d.documentId}?status=published`, { body: { data: { color: '#000002' } } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.meta).toEqual({});
    expect(r.body.data).toMatchObject({ documentId: d.documentId, label: 'p2', color: '#000002', publishedAt: expect.any(String) });
    for (const status of ['published', 'draft']) {
      expect((await t.get(`/api/tags/${d.documentId}?status=${status}`)).body.data, status).toMatchObject({ label: 'p2', color: '#000002' });
    }
  });

  it('the published id stays the same across publishes', async () => {
    const d = await post('/api/tags', { label: 'stable' });
    const again = await put(`/api/tags/${d.documentId}?status=published`, { label: 'stable 2' });
    expect(again['id']).toBe(d.id);
  });

  it('publishing copies nested components, zone entries with their relations, and relations onto the published version; re-publishing replaces them', async () => {
    const author = await post('/api/authors', { name: 'Copy author' });
    const other = await post('/api/authors', { name: 'Copy other' });
    const tag = await post('/api/tags', { label: 'copy tag' });
    const art = await post('/api/articles', {
      title: 'copied',
      author: author.documentId,
      tags: [tag.documentId],
      seo: { metaTitle: 'm1', openGraph: { ogTitle: 'og1' } },
      blocks: [
        { __component: 'shared.rich-text', body: 'b1' },
        { __component: 'shared.quote', title: 'q1', person: author.documentId },
      ],
    });
    const q = 'populate[author]=true&populate[tags]=true&populate[seo][populate]=*&populate[blocks][populate]=*';
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const shape = (d: Record<string, any>) => ({
      author: d['author']?.name,
      tags: d['tags'].map((x: { label: string }) => x.label),
      seo: [d['seo'].metaTitle, d['seo'].openGraph.ogTitle],
      blocks: d['blocks'].map((b: Record<string, any>) => [b['__component'], b['body'] ?? b['title'], b['person']?.name ?? null]), // eslint-disable-line @typescript-eslint/no-explicit-any
    });
    const read = async (status: string) => shape((await t.get(`/api/articles/${art.documentId}?${q}&status=${status}`)).body.data);
    const first = {
      author: 'Copy author',
      tags: ['copy tag'],
      seo: ['m1', 'og1'],
      blocks: [
        ['shared.rich-text', 'b1', null],
        ['shared.quote', 'q1', 'Copy author'],
      ],
    };
    expect(await read('published')).toEqual(first);
    expect(await read('draft')).toEqual(first);
    // the two versions hold their own component rows: editing the draft leaves the published one
    await put(`/api/articles/${art.documentId}?status=draft`, {
      author: other.documentId,
      tags: [],
      seo: { metaTitle: 'm2', openGraph: { ogTitle: 'og2' } },
      blocks: [{ __component: 'shared.quote', title: 'q2', person: other.documentId }],
    });
    const second = { author: 'Copy other', tags: [], seo: ['m2', 'og2'], blocks: [['shared.quote', 'q2', 'Copy other']] };
    expect(await read('draft')).toEqual(second);
    expect(await read('published')).toEqual(first);
    await put(`/api/articles/${art.documentId}`, {});
    expect(await read('published')).toEqual(second);
    expect(await read('draft')).toEqual(second);
  });

  it('publishedAt in a body is ignored', async () => {
    const d = await post('/api/tags?status=draft', { label: 'ignored', publishedAt: '2020-01-01T00:00:00.000Z' });
    expect(d.publishedAt).toBeNull();
  });

  it('an unknown status is a 400', async () => {
    const r = await t.get('/api/tags?status=bogus');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("Invalid parameter at 'status'. Expected 'published' or 'draft', received: bogus");
  });

  it('publicationFilter selects cohorts and combines with status', async () => {
    const never = await post('/api/tags?status=draft', { label: 'pf-never' });
    const same = await post('/api/tags', { label: 'pf-same' });
    const edited = await post('/api/tags', { label: 'pf-edited' });
    await new Promise((r) => setTimeout(r, 5));
    await put(`/api/tags/${edited.documentId}?status=draft`, { label: 'pf-edited-draft' });
    const q = (pf: string, status = 'draft'): Promise<string[]> => t.get(`/api/tags?filters[label][$startsWith]=pf-&status=${status}&publicationFilter=${pf}`).then(docIds);
    expect(await q('never-published')).toEqual([never.documentId]);
    expect(await q('never-published', 'published')).toEqual([]);
    expect(await q('has-published-version')).toEqual([same.documentId, edited.documentId].sort());
    expect(await q('modified')).toEqual([edited.documentId]);
    expect(await q('unmodified')).toEqual([same.documentId]);
    expect(await q('modified', 'published')).toEqual([edited.documentId]);
    expect(await q('published-with-draft', 'published')).toEqual([same.documentId, edited.documentId].sort());
    expect(await q('published-without-draft', 'published')).toEqual([]);
    expect(await q('never-published-document')).toEqual([never.documentId]);
    expect(await q('has-published-version-document', 'published')).toEqual([same.documentId, edited.documentId].sort());
    const bad = await t.get('/api/tags?publicationFilter=nope');
    expect(bad.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message:
        "Invalid value for 'publicationFilter'. Expected one of: never-published, has-published-version, modified, unmodified, never-published-document, has-published-version-document, published-without-draft, published-with-draft.",
      details: { source: 'query', param: 'publicationFilter' },
    });
  });

  it('DELETE ?status=draft is a 400, not a 500', async () => {
    const d = await post('/api/tags', { label: 'del' });
    const r = await t.request('DELETE', `/api/tags/${d.documentId}?status=draft`);
    expect(r.status).toBe(400);
    expect((await t.get(`/api/tags/${d.documentId}`)).status).toBe(200);
  });
});

describe('locales', () => {
  it('GET /api/i18n/locales lists the configured locales', async () => {
    const r = await t.get('/api/i18n/locales');
    expect(r.status).toBe(200);
    expect(r.body.map((l: { code: string }) => l.code).sort()).toEqual(['de', 'en', 'fr']);
    expect(r.body.find((l: { code: string }) => l.code === 'en').isDefault).toBe(true);
  });

  it('creates in the default or a given locale; an unknown locale is a 400 and writes nothing', async () => {
    const en = await post('/api/categories', { name: 'English' });
    expect((en as unknown as { locale: string }).locale).toBe('en');
    const fr = await post('/api/categories?locale=fr', { name: 'Français' });
    expect((fr as unknown as { locale: string }).locale).toBe('fr');
    const bad = await t.request('POST', '/api/categories?locale=xx', { body: { data: { name: 'x' } } });
    expect(bad.status).toBe(400);
    expect((await t.get('/api/categories?locale=*')).body.meta.pagination.total).toBe(2);
  });

  it('PUT ?locale= adds a locale version that shares non-localized fields; updating one updates all', async () => {
    const doc = await post('/api/categories', { name: 'Shared', slug: 'shared', position: 7 });
    const fr = await put(`/api/categories/${doc.documentId}?locale=fr`, { name: 'Partagé' });
    expect(fr).toMatchObject({ documentId: doc.documentId, name: 'Partagé', position: 7, locale: 'fr' });
    await put(`/api/categories/${doc.documentId}?locale=fr`, { position: 8 });
    expect((await t.get(`/api/categories/${doc.documentId}`)).body.data.position).toBe(8);
    const withLocalizations = await t.get(`/api/categories/${doc.documentId}?populate=localizations`);
    expect(withLocalizations.body.data.localizations.map((l: { locale: string }) => l.locale)).toEqual(['fr']);
  });

  it('a new locale version rejects non-localized fields in its body', async () => {
    const doc = await post('/api/categories', { name: 'Only localized', position: 1 });
    const r = await t.request('PUT', `/api/categories/${doc.documentId}?locale=de`, { body: { data: { name: 'Nur', position: 2 } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('Invalid key position');
  });

  it('a new locale version of a type without draft & publish must define its required fields, and is not written otherwise', async () => {
    const doc = await post('/api/categories', { name: 'Required name', position: 3 });
    const r = await t.request('PUT', `/api/categories/${doc.documentId}?locale=de`, { body: { data: { description: 'x' } } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'name must be defined.',
        details: { errors: [{ path: ['name'], message: 'name must be defined.', name: 'ValidationError' }] },
      },
    });
    expect((await t.get(`/api/categories/${doc.documentId}?locale=de`)).status).toBe(404);
    const single = await t.request('PUT', '/api/global?locale=fr', { body: { data: {} } });
    expect(single.status).toBe(400);
    expect(single.body.error.message).toBe('siteName must be defined.');
    expect((await t.get('/api/global?locale=fr')).status).toBe(404);
    // with the field, the new locale version is written
    expect((await t.request('PUT', `/api/categories/${doc.documentId}?locale=de`, { body: { data: { name: 'Pflicht' } } })).status).toBe(200);
  });

  it('without createLocalization a new locale version is 403', async () => {
    const doc = await post('/api/categories', { name: 'Guarded' });
    const custom = await t.tokenOf('custom', ['api::category.category.update', 'api::category.category.find', 'api::category.category.findOne']);
    const r = await t.request('PUT', `/api/categories/${doc.documentId}?locale=fr`, { token: custom, body: { data: { name: 'Gardé' } } });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('Forbidden');
  });

  it('DELETE ?locale= removes one locale version only', async () => {
    const doc = await post('/api/categories', { name: 'Two' });
    await put(`/api/categories/${doc.documentId}?locale=fr`, { name: 'Deux' });
    expect((await t.request('DELETE', `/api/categories/${doc.documentId}?locale=fr`)).status).toBe(204);
    expect((await t.get(`/api/categories/${doc.documentId}?locale=fr`)).status).toBe(404);
    expect((await t.get(`/api/categories/${doc.documentId}`)).status).toBe(200);
  });

  it('DELETE with a list of locales is a 400 and deletes nothing (one locale, or * for every locale)', async () => {
    const doc = await post('/api/categories', { name: 'Listed' });
    await put(`/api/categories/${doc.documentId}?locale=fr`, { name: 'Listée' });
    const message = 'Invalid locale param: a delete takes one locale, or * for every locale';
    for (const query of ['locale[0]=en&locale[1]=fr', 'locale[0]=fr']) {
      const r = await t.request('DELETE', `/api/categories/${doc.documentId}?${query}`);
      expect(r.body, query).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });
    }
    const single = await t.request('DELETE', '/api/global?locale[0]=fr&locale[1]=de');
    expect(single.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });
    expect((await t.get(`/api/categories/${doc.documentId}?locale=fr`)).status).toBe(200);
    expect((await t.get(`/api/categories/${doc.documentId}`)).status).toBe(200);
  });

  it('relations and their order survive adding a locale and publishing it', async () => {
    const [x, y] = [await post('/api/tags', { label: 'loc-x' }), await post('/api/tags', { label: 'loc-y' })];
    const art = await post('/api/articles', { title: 'Localized', tags: [y.documentId, x.documentId] });
    await put(`/api/articles/${art.documentId}?locale=fr`, { title: 'Localisé' });
    await put(`/api/articles/${art.documentId}`, { summary: 'republished' });
    const en = await t.get(`/api/articles/${art.documentId}?populate=tags`);
    expect(en.body.data.tags.map((tg: { documentId: string }) => tg.documentId)).toEqual([y.documentId, x.documentId]);
  });
});
