// A string sent for a json attribute, and a json default written as text, as Strapi 5.54 stores them:
// text that is JSON is the value it spells (a multi-select's `"default": "[]"` is an empty list), any
// other text stays a string. Seen on the reference for each value below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { project } from '../config/helpers.js';

let t: TestApp;

beforeAll(async () => {
  const dir = project({
    'src/api/project/content-types/project/schema.json': JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'project', pluralName: 'projects' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        technologies: { type: 'customField', customField: 'plugin::multi-select.multi-select', default: '[]' },
        settings: { type: 'json', default: '{"theme":"dark"}' },
        extra: { type: 'json' },
        parts: { type: 'component', component: 'kit.part', repeatable: true },
      },
    }),
    'src/components/kit/part.json': JSON.stringify({ collectionName: 'components_kit_parts', attributes: { data: { type: 'json', default: '[1]' } } }),
  });
  t = await startTestApp({ dir });
});
afterAll(async () => {
  await t?.close();
});

async function created(data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await t.request('POST', '/api/projects', { body: { data } });
  expect(r.status, r.text).toBe(201);
  const read = await t.get(`/api/projects/${r.body.data.documentId as string}?populate=parts`);
  // the create's answer and a later read agree
  for (const [k, v] of Object.entries(r.body.data as Record<string, unknown>)) expect(read.body.data[k], k).toEqual(v);
  return read.body.data;
}

describe('json attributes given text', () => {
  it('a default written as JSON text is the value it spells, in a component too', async () => {
    const p = await created({ name: 'Defaults', parts: [{}] });
    expect(p).toMatchObject({ technologies: [], settings: { theme: 'dark' }, extra: null, parts: [{ data: [1] }] });
  });

  it('a string that is JSON is stored as the value it spells; other text stays a string', async () => {
    const cases: [unknown, unknown][] = [
      ['[]', []],
      ['{"a":1}', { a: 1 }],
      ['  [1, 2]', [1, 2]],
      ['123', 123],
      ['null', null],
      ['hello', 'hello'],
      ['"x"', '"x"'],
      ['"[1]"', [1]],
      [['a'], ['a']],
      [7, 7],
    ];
    for (const [given, stored] of cases) {
      const p = await created({ name: 'T', extra: given });
      expect(p['extra'], JSON.stringify(given)).toEqual(stored);
    }
    const listed = await t.get('/api/projects?filters[name][$eq]=T&fields[0]=extra&sort=id');
    expect(listed.body.data.map((d: { extra: unknown }) => d.extra)).toEqual(cases.map(([, stored]) => stored));
  });

  it('an update sends text the same way', async () => {
    const made = await t.request('POST', '/api/projects', { body: { data: { name: 'U' } } });
    const id = made.body.data.documentId as string;
    const put = await t.request('PUT', `/api/projects/${id}`, { body: { data: { technologies: '["react","vue"]' } } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.technologies).toEqual(['react', 'vue']);
  });

  it('text nesting deeper than a body may is refused with the field named', async () => {
    const deep = '['.repeat(65) + ']'.repeat(65);
    const r = await t.request('POST', '/api/projects', { body: { data: { name: 'D', extra: deep } } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      name: 'ValidationError',
      details: { errors: [{ path: ['extra'], message: 'extra may nest objects and arrays at most 64 levels deep', name: 'ValidationError' }] },
    });
    expect((await t.get('/api/projects?filters[name][$eq]=D')).body.data).toEqual([]);
  });
});
