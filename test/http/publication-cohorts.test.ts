// publicationFilter, status and locale against a data set with one document per cohort, asserting
// exactly which documents (and how many) come back for every value, per locale and across locales.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { statementCosts } from '../support/statements.js';

let t: TestApp;

/** cohort name → documentId */
const doc: Record<string, string> = {};
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 20));

async function write(method: 'POST' | 'PUT', path: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request(method, path, { body: { data } });
  expect(r.status, `${method} ${path} ${JSON.stringify(r.body)}`).toBe(method === 'POST' ? 201 : 200);
  return r.body.data.documentId as string;
}

beforeAll(async () => {
  t = await startTestApp();
  const art = (title: string): Record<string, unknown> => ({ title: `pc ${title}` });
  // never published anywhere: one locale, then two
  doc['draftEn'] = await write('POST', '/api/articles?status=draft', art('draft en'));
  doc['draftBoth'] = await write('POST', '/api/articles?status=draft', art('draft both'));
  await write('PUT', `/api/articles/${doc['draftBoth']}?locale=fr&status=draft`, art('brouillon'));
  // published and left alone
  doc['unmodified'] = await write('POST', '/api/articles', art('unmodified'));
  // published, then its draft edited
  doc['modified'] = await write('POST', '/api/articles', art('modified'));
  // published in en only, with a French draft that was never published
  doc['enOnly'] = await write('POST', '/api/articles', art('en only'));
  await write('PUT', `/api/articles/${doc['enOnly']}?locale=fr&status=draft`, art('seulement en'));
  // published in both locales; the French draft edited afterwards
  doc['frModified'] = await write('POST', '/api/articles', art('fr modified'));
  await write('PUT', `/api/articles/${doc['frModified']}?locale=fr`, art('fr modifié'));
  // a published row whose draft row is gone (abnormal data, for published-without-draft)
  doc['orphan'] = await write('POST', '/api/articles', art('orphan'));
  await tick();
  await write('PUT', `/api/articles/${doc['modified']}?status=draft`, { summary: 'edited after publishing' });
  await write('PUT', `/api/articles/${doc['frModified']}?locale=fr&status=draft`, { summary: 'modifié' });
  await t.app.database.db.deleteFrom('articles').where('document_id', '=', doc['orphan']).where('published_at', 'is', null).execute();
});
afterAll(async () => {
  await t.close();
});

interface Listed {
  documentIds: string[];
  total: number;
  rows: { documentId: string; locale: string; publishedAt: string | null }[];
}

async function list(query: string): Promise<Listed> {
  const r = await t.get(`/api/articles?filters[title][$startsWith]=pc&pagination[pageSize]=100&${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const rows = r.body.data as Listed['rows'];
  return { rows, documentIds: rows.map((d) => d.documentId).sort(), total: r.body.meta.pagination.total };
}

const ids = (...names: string[]): string[] => names.map((n) => doc[n]!).sort();

// [publicationFilter, status, locale, expected cohorts]
const table: [string, 'draft' | 'published', 'en' | 'fr', string[]][] = [
  ['never-published', 'draft', 'en', ['draftEn', 'draftBoth']],
  ['never-published', 'draft', 'fr', ['draftBoth', 'enOnly']],
  ['never-published', 'published', 'en', []],
  ['never-published', 'published', 'fr', []],
  ['never-published-document', 'draft', 'en', ['draftEn', 'draftBoth']],
  ['never-published-document', 'draft', 'fr', ['draftBoth']],
  ['never-published-document', 'published', 'en', []],
  ['has-published-version', 'draft', 'en', ['unmodified', 'modified', 'enOnly', 'frModified']],
  ['has-published-version', 'draft', 'fr', ['frModified']],
  ['has-published-version', 'published', 'en', ['unmodified', 'modified', 'enOnly', 'frModified']],
  ['has-published-version', 'published', 'fr', ['frModified']],
  ['has-published-version-document', 'draft', 'en', ['unmodified', 'modified', 'enOnly', 'frModified']],
  ['has-published-version-document', 'draft', 'fr', ['enOnly', 'frModified']],
  ['has-published-version-document', 'published', 'en', ['unmodified', 'modified', 'enOnly', 'frModified']],
  ['has-published-version-document', 'published', 'fr', ['frModified']],
  ['modified', 'draft', 'en', ['modified']],
  ['modified', 'draft', 'fr', ['frModified']],
  ['modified', 'published', 'en', ['modified']],
  ['modified', 'published', 'fr', ['frModified']],
  ['unmodified', 'draft', 'en', ['unmodified', 'enOnly', 'frModified']],
  ['unmodified', 'draft', 'fr', []],
  ['unmodified', 'published', 'en', ['unmodified', 'enOnly', 'frModified']],
  ['unmodified', 'published', 'fr', []],
  ['published-without-draft', 'published', 'en', ['orphan']],
  ['published-without-draft', 'published', 'fr', []],
  ['published-without-draft', 'draft', 'en', []],
  ['published-with-draft', 'published', 'en', ['unmodified', 'modified', 'enOnly', 'frModified']],
  ['published-with-draft', 'published', 'fr', ['frModified']],
  ['published-with-draft', 'draft', 'en', []],
];

describe('publicationFilter cohorts', () => {
  it.each(table)('publicationFilter=%s with status=%s in locale %s selects exactly its cohort', async (pf, status, locale, expected) => {
    const r = await list(`publicationFilter=${pf}&status=${status}&locale=${locale}`);
    expect(r.documentIds).toEqual(ids(...expected));
    expect(r.total).toBe(expected.length);
    for (const row of r.rows) {
      expect(row.locale).toBe(locale);
      expect(row.publishedAt === null).toBe(status === 'draft');
    }
  });

  it('without publicationFilter, status picks the version: drafts of every document, published rows of published ones', async () => {
    expect((await list('status=draft')).documentIds).toEqual(ids('draftEn', 'draftBoth', 'unmodified', 'modified', 'enOnly', 'frModified'));
    expect((await list('')).documentIds).toEqual(ids('unmodified', 'modified', 'enOnly', 'frModified', 'orphan'));
    expect((await list('locale=fr')).documentIds).toEqual(ids('frModified'));
    expect((await list('locale=fr&status=draft')).documentIds).toEqual(ids('draftBoth', 'enOnly', 'frModified'));
  });

  it('status=draft returns the edited draft, the default the published content', async () => {
    const draft = await t.get(`/api/articles/${doc['modified']}?status=draft`);
    const published = await t.get(`/api/articles/${doc['modified']}`);
    expect(draft.body.data.summary).toBe('edited after publishing');
    expect(published.body.data.summary).toBeNull();
  });

  it('locale=* applies the cohort to each locale of each document', async () => {
    const r = await list('publicationFilter=never-published&status=draft&locale=*');
    expect(r.rows.map((x) => `${x.documentId}:${x.locale}`).sort()).toEqual(
      [`${doc['draftEn']}:en`, `${doc['draftBoth']}:en`, `${doc['draftBoth']}:fr`, `${doc['enOnly']}:fr`].sort(),
    );
    const d = await list('publicationFilter=never-published-document&status=draft&locale=*');
    expect(d.rows.map((x) => `${x.documentId}:${x.locale}`).sort()).toEqual([`${doc['draftEn']}:en`, `${doc['draftBoth']}:en`, `${doc['draftBoth']}:fr`].sort());
  });

  it('combines with filters: all conditions apply together', async () => {
    const r = await list('publicationFilter=has-published-version&status=draft&filters[summary][$notNull]=true');
    expect(r.documentIds).toEqual(ids('modified'));
    expect(r.total).toBe(1);
    const none = await list('publicationFilter=never-published&status=draft&filters[title][$eq]=pc unmodified');
    expect(none.documentIds).toEqual([]);
  });

  it('combines with pagination: the total counts the whole cohort, pages split it', async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const r = await t.get(
        `/api/articles?filters[title][$startsWith]=pc&publicationFilter=has-published-version&status=draft&sort=title&pagination[page]=${page}&pagination[pageSize]=2`,
      );
      expect(r.body.meta.pagination).toEqual({ page, pageSize: 2, pageCount: 2, total: 4 });
      seen.push(...r.body.data.map((d: { documentId: string }) => d.documentId));
    }
    expect(seen.sort()).toEqual(ids('unmodified', 'modified', 'enOnly', 'frModified'));
    const offset = await t.get('/api/articles?filters[title][$startsWith]=pc&publicationFilter=modified&status=draft&locale=*&pagination[start]=0&pagination[limit]=1');
    expect(offset.body.meta.pagination).toEqual({ start: 0, limit: 1, total: 2 });
  });

  it('applies to populated relations too, and populate keeps the cohort at the root', async () => {
    const tagNever = await write('POST', '/api/tags?status=draft', { label: 'pc-never' });
    const tagPub = await write('POST', '/api/tags', { label: 'pc-pub' });
    await write('PUT', `/api/articles/${doc['draftEn']}?status=draft`, { tags: [tagNever, tagPub] });
    const r = await t.get(`/api/articles?filters[documentId][$eq]=${doc['draftEn']}&status=draft&publicationFilter=never-published&populate=tags`);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].tags.map((x: { documentId: string }) => x.documentId)).toEqual([tagNever]);
    const all = await t.get(`/api/articles/${doc['draftEn']}?status=draft&populate=tags`);
    expect(all.body.data.tags.map((x: { documentId: string }) => x.documentId)).toEqual([tagNever, tagPub]);
  });

  it('findOne honours the cohort: a document outside it is 404', async () => {
    expect((await t.get(`/api/articles/${doc['modified']}?status=draft&publicationFilter=modified`)).status).toBe(200);
    expect((await t.get(`/api/articles/${doc['unmodified']}?status=draft&publicationFilter=modified`)).status).toBe(404);
  });

  it('has no effect on types without draft & publish', async () => {
    await write('POST', '/api/categories', { name: 'pc category' });
    const all = await t.get('/api/categories?filters[name][$eq]=pc category');
    const filtered = await t.get('/api/categories?filters[name][$eq]=pc category&publicationFilter=never-published&status=draft');
    expect(filtered.status).toBe(200);
    expect(filtered.body.data).toEqual(all.body.data);
    expect(all.body.data).toHaveLength(1);
  });

  it('on a type without draft & publish, filters its populated relations that have it, as Strapi 5.54 does', async () => {
    const author = await write('POST', '/api/authors', { name: 'pc author', articles: [doc['draftEn'], doc['unmodified']] });
    const titles = async (query: string): Promise<string[]> => {
      const r = await t.get(`/api/authors/${author}?status=draft&populate[articles][fields][0]=title&${query}`);
      expect(r.status, `${query}: ${r.text}`).toBe(200);
      return (r.body.data.articles as { title: string }[]).map((a) => a.title);
    };
    expect(await titles('publicationFilter=never-published')).toEqual(['pc draft en']);
    expect(await titles('hasPublishedVersion=false')).toEqual(['pc draft en']);
    expect(await titles('publicationFilter=has-published-version')).toEqual(['pc unmodified']);
    expect(await titles('hasPublishedVersion=true')).toEqual(['pc unmodified']);
    expect(await titles('')).toEqual(['pc draft en', 'pc unmodified']);
    const counted = await t.get(`/api/authors/${author}?status=draft&populate[articles][count]=true&publicationFilter=never-published`);
    expect(counted.body.data.articles).toEqual({ count: 1 });
  });

  it('an unknown value is a 400 naming the parameter, also on types without draft & publish', async () => {
    for (const path of ['/api/articles', '/api/categories', `/api/articles/${doc['modified']}`]) {
      const r = await t.get(`${path}?publicationFilter=published`);
      expect(r.status).toBe(400);
      expect(r.body.error.details).toEqual({ source: 'query', param: 'publicationFilter' });
    }
  });
});

describe('hasPublishedVersion, the deprecated boolean', () => {
  it('names the document-wide cohorts, as Strapi 5.54 maps it: a French draft of a document published in English has a published version', async () => {
    const fr = await list('locale=fr&status=draft&hasPublishedVersion=true');
    expect(fr.documentIds).toEqual((await list('locale=fr&status=draft&publicationFilter=has-published-version-document')).documentIds);
    expect(fr.documentIds).toContain(doc['enOnly']);
    const never = await list('locale=fr&status=draft&hasPublishedVersion=false');
    expect(never.documentIds).toEqual(ids('draftBoth'));
    // publicationFilter, when given, wins
    expect((await list('locale=fr&status=draft&hasPublishedVersion=false&publicationFilter=modified')).documentIds).toEqual(ids('frModified'));
  });

  it("any other value is Strapi's 400", async () => {
    // on every type, and beside a publicationFilter too, as Strapi 5.54 parses it
    const paths = ['/api/articles?status=draft&', '/api/authors?', '/api/global?', '/api/tags?publicationFilter=modified&'];
    for (const [path, value] of [...['yes', '1', '0', ''].map((v) => [paths[0]!, v]), ...paths.slice(1).map((p) => [p, 'x'])] as const) {
      const r = await t.get(`${path}hasPublishedVersion=${value}`);
      expect(r.body, `${path}${value}`).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: "Invalid value for 'hasPublishedVersion'. Expected boolean or 'true'/'false' string.", details: {} },
      });
    }
  });
});

describe('statement count with status, locale and publicationFilter', () => {
  it('a populated list costs the same number of statements for 1 or many documents', async () => {
    const q =
      'status=draft&locale=fr&publicationFilter=has-published-version-document&populate[tags]=true&populate[categories]=true&populate[seo]=true&populate[blocks]=true&populate[author][populate][profile]=true';
    const [one, many] = await statementCosts(t, [`/api/articles?${q}&filters[documentId][$eq]=${doc['enOnly']}`, `/api/articles?${q}&filters[title][$startsWith]=pc`]);
    expect(many).toBe(one);
  });
});
