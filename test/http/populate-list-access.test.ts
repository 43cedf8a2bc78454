// A comma-separated `populate` string is checked name by name against what the caller may find, exactly as
// the same names given as a list (`populate[0]=…&populate[1]=…`): a name whose path goes through a relation
// the caller may not find is left out whole, the other names are populated. Strapi 5.54 checks the string
// as one dotted path before splitting it, so its answer depends on where the first dot falls (README,
// "Differences from Strapi"); what it never shows is a relation the caller may not find, nor does Folio.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;
let token: string;
let articleId: string;

beforeAll(async () => {
  t = await startTestApp();
  // finds articles, tags and users; neither authors nor roles
  token = await t.tokenOf('custom', ['api::article.article.find', 'api::tag.tag.find', 'plugin::users-permissions.user.find']);
  const editor = await t.request('POST', '/api/users', { body: { username: 'listed-editor', email: 'listed-editor@example.com', password: 'secret123' } });
  expect(editor.status, editor.text).toBe(201);
  const author = await writeDocument(t, 'POST', '/api/authors', { name: 'Unlisted author' });
  const tag = await writeDocument(t, 'POST', '/api/tags?status=published', { label: 'listed tag' });
  articleId = await writeDocument(t, 'POST', '/api/articles?status=published', { title: 'listed', author, tags: [tag], editor: editor.body.id });
});
afterAll(async () => {
  await t.close();
});

/** the populated keys of the article, and the keys of each populated value */
async function shape(query: string): Promise<Record<string, string[]>> {
  const r = await t.get(`/api/articles?filters[documentId][$eq]=${articleId}&fields[0]=title&${query}`, { token });
  expect(r.status, `${query}: ${r.text}`).toBe(200);
  const doc = r.body.data[0] as Record<string, unknown>;
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k === 'id' || k === 'documentId' || k === 'title') continue;
    const first = Array.isArray(v) ? v[0] : v;
    out[k] = first && typeof first === 'object' ? Object.entries(first).flatMap(([n, x]) => (x !== null && typeof x === 'object' ? [n] : [])) : [];
  }
  return out;
}

describe('a comma-separated populate is checked name by name, as the same names in a list', () => {
  it('leaves out whole a name going through a relation the caller may not find, and populates the others', async () => {
    const cases: [comma: string, list: string, expected: Record<string, string[]>][] = [
      // the first name's relation can't be found: the names after it are still populated (Strapi 5.54: none)
      ['populate=author.avatar,tags,editor', 'populate[0]=author.avatar&populate[1]=tags&populate[2]=editor', { tags: [], editor: [] }],
      // a path through the role the caller may not find leaves the editor out whole (Strapi 5.54: the editor without role)
      ['populate=tags,editor.role', 'populate[0]=tags&populate[1]=editor.role', { tags: [] }],
      ['populate=editor,tags.articles.author', 'populate[0]=editor&populate[1]=tags.articles.author', { editor: [] }],
      ['populate=tags.articles,editor', 'populate[0]=tags.articles&populate[1]=editor', { tags: ['articles'], editor: [] }],
    ];
    for (const [comma, list, expected] of cases) {
      expect(await shape(comma), comma).toEqual(expected);
      expect(await shape(list), list).toEqual(expected);
    }
  });

  it('never shows the author, the role or a private field, whatever the order of the names', async () => {
    for (const q of [
      'populate=author,editor',
      'populate=editor,author',
      'populate=editor.role,author',
      'populate=author.avatar,editor.role',
      'populate=tags.articles.author,tags',
    ]) {
      const r = await t.get(`/api/articles?filters[documentId][$eq]=${articleId}&${q}`, { token });
      expect(r.status, q).toBe(200);
      const text = r.text;
      expect(text, q).not.toContain('Unlisted author');
      expect(text, q).not.toContain('"role"');
      expect(text, q).not.toContain('"author"');
      expect(text, q).not.toContain('password');
    }
  });
});
