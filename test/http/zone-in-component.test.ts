// A dynamic zone inside a component, which Strapi 5.54 starts with and serves (its admin builder
// doesn't offer one, hand-written schemas have them: AigarsPeda/janoga_2's form steps).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { project } from '../config/helpers.js';

let t: TestApp;

beforeAll(async () => {
  const dir = project({
    'src/api/form/content-types/form/schema.json': JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'form', pluralName: 'forms' },
      options: { draftAndPublish: true },
      attributes: { name: { type: 'string' }, steps: { type: 'component', component: 'elements.step', repeatable: true } },
    }),
    'src/components/elements/step.json': JSON.stringify({
      collectionName: 'components_elements_steps',
      attributes: { title: { type: 'string' }, element: { type: 'dynamiczone', components: ['elements.question', 'elements.slider'] } },
    }),
    'src/components/elements/question.json': JSON.stringify({ collectionName: 'components_elements_questions', attributes: { text: { type: 'string', required: true } } }),
    'src/components/elements/slider.json': JSON.stringify({ collectionName: 'components_elements_sliders', attributes: { min: { type: 'integer' }, max: { type: 'integer' } } }),
  });
  t = await startTestApp({ dir });
});
afterAll(async () => {
  await t?.close();
});

const element = [
  { __component: 'elements.question', text: 'Why?' },
  { __component: 'elements.slider', min: 1, max: 5 },
];

describe('a dynamic zone inside a component', () => {
  it('is written, published, read with populate and updated', async () => {
    const made = await t.request('POST', '/api/forms', {
      body: {
        data: {
          name: 'F',
          steps: [
            { title: 'one', element },
            { title: 'two', element: [] },
          ],
        },
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.documentId as string;
    const strip = (zone: Record<string, unknown>[]): Record<string, unknown>[] => zone.map(({ id: _id, ...rest }) => rest);
    for (const q of [
      'populate[steps][populate]=*',
      'populate[steps][populate][element]=true',
      'populate[steps][populate][element][on][elements.question]=true&populate[steps][populate][element][on][elements.slider]=true',
    ]) {
      const r = await t.get(`/api/forms/${id}?${q}`);
      expect(r.status, `${q}: ${r.text}`).toBe(200);
      expect(
        r.body.data.steps.map((s: { title: string; element: Record<string, unknown>[] }) => [s.title, strip(s.element)]),
        q,
      ).toEqual([
        ['one', element],
        ['two', []],
      ]);
    }
    // without a populate below the step, the zone is left out as a relation would be
    expect((await t.get(`/api/forms/${id}?populate=steps`)).body.data.steps[0]).not.toHaveProperty('element');
    const draft = await t.get(`/api/forms/${id}?status=draft&populate[steps][populate]=*`);
    expect(strip(draft.body.data.steps[0].element)).toEqual(element);

    const put = await t.request('PUT', `/api/forms/${id}`, { body: { data: { steps: [{ title: 'only', element: [{ __component: 'elements.slider', min: 2 }] }] } } });
    expect(put.status, put.text).toBe(200);
    const after = await t.get(`/api/forms/${id}?populate[steps][populate]=*`);
    expect(after.body.data.steps.map((s: { title: string; element: Record<string, unknown>[] }) => [s.title, strip(s.element)])).toEqual([
      ['only', [{ __component: 'elements.slider', min: 2, max: null }]],
    ]);
  });

  it('deleting the document deletes its steps and their zone entries', async () => {
    const made = await t.request('POST', '/api/forms', { body: { data: { name: 'H', steps: [{ title: 's', element }] } } });
    const db = t.app.database.db;
    const count = async (table: string): Promise<number> => (await db.selectFrom(table).select('id').execute()).length;
    const before = await Promise.all(['components_elements_steps', 'components_elements_questions', 'components_elements_sliders'].map(count));
    expect((await t.request('DELETE', `/api/forms/${made.body.data.documentId as string}`)).status).toBe(204);
    const after = await Promise.all(['components_elements_steps', 'components_elements_questions', 'components_elements_sliders'].map(count));
    // the draft and the published version held one step with two entries each
    expect(before.map((n, i) => n - after[i]!)).toEqual([2, 2, 2]);
  });

  it('its entries are checked as a zone of a document is: an unknown component and a required field', async () => {
    const bad = await t.request('POST', '/api/forms', { body: { data: { name: 'G', steps: [{ element: [{ __component: 'elements.nope' }] }] } } });
    expect(bad.status).toBe(400);
    const missing = await t.request('POST', '/api/forms', { body: { data: { name: 'G', steps: [{ element: [{ __component: 'elements.question' }] }] } } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.errors[0].path).toEqual(['steps', '0', 'element', '0', 'text']);
  });

  it('filters reach into it as into a document’s zone', async () => {
    const r = await t.get('/api/forms?filters[steps][title][$eq]=only&fields[0]=name');
    expect(r.status, r.text).toBe(200);
  });
});
