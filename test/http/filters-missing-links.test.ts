// `$null` / `$notNull` through a relation, media field or component with no link, and operators
// placed directly on such an attribute: what the reference Strapi 5.54 answers on the same data
// (it tests such a document once against a row of NULLs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, startUploadApp, type UploadApp } from '../upload/helpers.js';

let u: UploadApp;
const doc: Record<string, string> = {};
const id: Record<string, number> = {};

async function create(plural: string, data: Record<string, unknown>, query = ''): Promise<string> {
  const r = await u.t.request('POST', `/api/${plural}${query}`, { body: { data } });
  if (r.status !== 201) throw new Error(`${plural}: ${r.status} ${r.text}`);
  return r.body.data.documentId;
}

beforeAll(async () => {
  u = await startUploadApp();
  const file = await u.upload([filePart('a file', 'a.txt', 'text/plain')]);
  if (file.status !== 201) throw new Error(file.text);
  id['file'] = file.body[0].id;
  const user = await u.t.request('POST', '/api/users', { body: { username: 'editor', email: 'editor@example.test', password: 'secret123' } });
  if (user.status !== 201) throw new Error(user.text);
  id['editor'] = user.body.id;
  doc['red'] = await create('tags', { label: 'Red' });
  doc['hidden'] = await create('tags', { label: 'Never published' }, '?status=draft');
  doc['ada'] = await create('authors', { name: 'Ada', links: [{ label: 'site', url: 'https://ada.example' }] });
  doc['bob'] = await create('authors', { name: 'Bob' });
  id['ada'] = (await u.t.get(`/api/authors/${doc['ada']}`)).body.data.id;
  doc['root'] = await create('categories', { name: 'Root' });
  doc['child'] = await create('categories', { name: 'Child', parent: doc['root'] });
  doc['tagged'] = await create('articles', {
    title: 'Tagged',
    tags: [doc['red']],
    author: doc['ada'],
    editor: id['editor'],
    cover: id['file'],
    gallery: [id['file']],
    seo: { metaTitle: 'Meta' },
  });
  // its only tag has no published version: the published article shows no tag, the draft shows it
  doc['hiddenTag'] = await create('articles', { title: 'Hidden tag only', tags: [doc['hidden']], author: doc['bob'] });
  doc['bare'] = await create('articles', { title: 'Bare' });
});
afterAll(async () => {
  await u.close();
});

async function names(path: string, key = 'title'): Promise<string[]> {
  const r = await u.t.get(path);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.meta.pagination.total).toBe(r.body.data.length);
  return r.body.data.map((d: Record<string, string>) => d[key]);
}

const articles = (filters: string, extra = ''): Promise<string[]> => names(`/api/articles?fields[0]=title&sort=title&${filters}${extra}`);

describe('$null through an empty relation, media field or component', () => {
  it('to-many relation: articles without tags, and $notNull the mirror', async () => {
    const r = await u.t.get('/api/articles?fields[0]=title&sort=title&filters[tags][id][$null]=true');
    expect(r.body).toEqual({
      data: [
        { id: expect.any(Number), documentId: doc['bare'], title: 'Bare' },
        { id: expect.any(Number), documentId: doc['hiddenTag'], title: 'Hidden tag only' },
      ],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } },
    });
    expect(await articles('filters[tags][id][$notNull]=true')).toEqual(['Tagged']);
    expect(await articles('filters[tags][id][$null]=false')).toEqual(['Tagged']);
    expect(await articles('filters[tags][id][$notNull]=false')).toEqual(['Bare', 'Hidden tag only']);
  });

  it('a link to a version the read does not see counts as no link: the draft holds the draft-only tag', async () => {
    expect(await articles('filters[tags][id][$null]=true', '&status=draft')).toEqual(['Bare']);
    expect(await articles('filters[tags][id][$notNull]=true', '&status=draft')).toEqual(['Hidden tag only', 'Tagged']);
  });

  it('to-one relation: root categories, and the one-way to-one never set', async () => {
    expect(await names('/api/categories?fields[0]=name&sort=name&filters[parent][id][$null]=true', 'name')).toEqual(['Root']);
    expect(await names('/api/categories?fields[0]=name&sort=name&filters[parent][id][$notNull]=true', 'name')).toEqual(['Child']);
    expect(await articles('filters[editor][id][$null]=true')).toEqual(['Bare', 'Hidden tag only']);
    expect(await articles('filters[editor][id][$notNull]=true')).toEqual(['Tagged']);
  });

  it('media: an empty multiple media field and a single one never set', async () => {
    expect(await articles('filters[gallery][id][$null]=true')).toEqual(['Bare', 'Hidden tag only']);
    expect(await articles('filters[gallery][name][$null]=true')).toEqual(['Bare', 'Hidden tag only']);
    expect(await articles('filters[cover][id][$notNull]=true')).toEqual(['Tagged']);
  });

  it('components: a repeatable component with no entries, a single one never set', async () => {
    expect(await names('/api/authors?fields[0]=name&sort=name&filters[links][id][$null]=true', 'name')).toEqual(['Bob']);
    expect(await names('/api/authors?fields[0]=name&sort=name&filters[links][url][$notNull]=true', 'name')).toEqual(['Ada']);
    expect(await articles('filters[seo][metaTitle][$null]=true')).toEqual(['Bare', 'Hidden tag only']);
  });

  it('through two links: an article without author, or whose author has no links', async () => {
    expect(await articles('filters[author][links][id][$null]=true')).toEqual(['Bare', 'Hidden tag only']);
  });

  it('conditions that do not hold on a missing link never add the documents without one', async () => {
    expect(await articles('filters[tags][label][$eq]=Red')).toEqual(['Tagged']);
    expect(await articles('filters[tags][label][$ne]=Red')).toEqual([]);
    expect(await articles('filters[tags][$not][label][$eq]=Red')).toEqual([]);
    expect(await articles('filters[tags][label][$notIn][0]=Blue')).toEqual(['Tagged']);
  });

  it('combines with $not and $or like any condition', async () => {
    expect(await articles('filters[$not][tags][id][$null]=true')).toEqual(['Tagged']);
    expect(await articles('filters[$or][0][tags][id][$null]=true&filters[$or][1][title][$eq]=Tagged')).toEqual(['Bare', 'Hidden tag only', 'Tagged']);
    expect(await articles('filters[tags][$or][0][id][$null]=true&filters[tags][$or][1][label][$eq]=Red')).toEqual(['Bare', 'Hidden tag only', 'Tagged']);
  });
});

describe('an operator placed directly on a relation, media field or component names its id', () => {
  it('$null / $notNull', async () => {
    expect(await articles('filters[author][$null]=true')).toEqual(['Bare']);
    expect(await articles('filters[author][$notNull]=true')).toEqual(['Hidden tag only', 'Tagged']);
    expect(await articles('filters[tags][$null]=true')).toEqual(['Bare', 'Hidden tag only']);
    expect(await articles('filters[cover][$null]=true')).toEqual(['Bare', 'Hidden tag only']);
    expect(await articles('filters[seo][$notNull]=true')).toEqual(['Tagged']);
    expect(await names('/api/authors?fields[0]=name&sort=name&filters[links][$null]=true', 'name')).toEqual(['Bob']);
    expect(await names('/api/categories?fields[0]=name&sort=name&filters[parent][$null]=true', 'name')).toEqual(['Root']);
  });

  it('beside conditions on the same relation, each holds (Strapi 5.54 answers 500: operator and non-operator keys mixed)', async () => {
    const categories = (filters: string) => names(`/api/categories?fields[0]=name&sort=name&${filters}`, 'name');
    expect(await categories('filters[parent][$notNull]=true&filters[parent][name][$eq]=Root')).toEqual(['Child']);
    expect(await categories('filters[parent][$notNull]=true&filters[parent][name][$eq]=Nobody')).toEqual([]);
    expect(await categories('filters[parent][parent][$null]=true&filters[parent][$notNull]=true')).toEqual(['Child']);
  });

  it('a bare value and comparison operators compare the linked id', async () => {
    expect(await articles(`filters[author]=${id['ada']}`)).toEqual(['Tagged']);
    expect(await articles(`filters[author][$eq]=${id['ada']}`)).toEqual(['Tagged']);
    expect(await articles(`filters[author][$in][0]=${id['ada']}`)).toEqual(['Tagged']);
    expect(await articles(`filters[author][$ne]=${id['ada']}`)).toEqual(['Hidden tag only']);
    expect(await articles(`filters[author][$not][$eq]=${id['ada']}`)).toEqual(['Hidden tag only']);
  });

  it('unknown operators and values that are no id stay 400s', async () => {
    const unknown = await u.t.get('/api/articles?filters[author][$nope]=1');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key $nope at author',
      details: { key: '$nope', path: 'author', source: 'query', param: 'filters' },
    });
    const notAnId = await u.t.get('/api/articles?filters[author][$eq]=abc');
    expect(notAnId.status).toBe(400);
    expect(notAnId.body.error.message).toBe('Invalid value "abc" for author.id: expected an integer');
    // an operator straight on a relation or a component compares its id, and is named so
    for (const [q, message] of [
      ['filters[author][$null]=x', 'Invalid value "x" for author.id: expected true or false'],
      ['filters[seo][$eq]=x', 'Invalid value "x" for seo.id: expected an integer'],
      ['filters[categories][parent][$in][0]=x', 'Invalid value "x" for categories.parent.id: expected an integer'],
    ]) {
      const r = await u.t.get(`/api/articles?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message, q).toBe(message);
    }
  });
});
