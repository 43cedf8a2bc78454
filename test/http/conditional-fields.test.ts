// Strapi 5's conditional fields (`conditions.visible`, a JSON Logic rule over the sibling values):
// a field whose condition doesn't hold skips its publish rules (required, unique), its value is still
// stored and returned. Bodies compared with the reference Strapi 5.54; schema loading checks the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaError } from '../../src/errors.js';
import { loadModel } from '../../src/schema/load-model.js';
import { project } from '../config/helpers.js';
import { startTestApp, type TestApp } from '../support/app.js';

const WHEN_VIDEO = { visible: { '==': [{ var: 'kind' }, 'video'] } };
const CLIP = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'clips',
  info: { singularName: 'clip', pluralName: 'clips', displayName: 'Clip' },
  options: { draftAndPublish: true },
  attributes: {
    title: { type: 'string' },
    kind: { type: 'enumeration', enum: ['video', 'text'] },
    url: { type: 'string', required: true, conditions: WHEN_VIDEO },
    code: { type: 'uid', conditions: WHEN_VIDEO },
    steps: { type: 'component', repeatable: true, component: 'howto.step' },
  },
});
const STEP = JSON.stringify({
  collectionName: 'components_howto_steps',
  info: { displayName: 'Step' },
  attributes: {
    mode: { type: 'enumeration', enum: ['image', 'text'] },
    caption: { type: 'string', required: true, conditions: { visible: { '==': [{ var: 'mode' }, 'text'] } } },
  },
});
const FILES = { 'src/api/clip/content-types/clip/schema.json': CLIP, 'src/components/howto/step.json': STEP };

function required(path: string[]): unknown {
  // Strapi's yup path: steps[1].caption
  const where = path.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i ? `.${p}` : p)).join('');
  const message = `${where} must be a \`string\` type, but the final value was: \`null\`.`;
  return { data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError', value: null }] } } };
}

describe('conditional fields over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dir: project(FILES) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a required field whose condition does not hold may be left out', async () => {
    const r = await t.request('POST', '/api/clips', { body: { data: { kind: 'text', title: 'Notes' } } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject({ kind: 'text', title: 'Notes', url: null, code: null });
  });

  it('a value sent for a hidden field is kept and returned', async () => {
    const r = await t.request('POST', '/api/clips', { body: { data: { kind: 'text', url: 'https://example.com/kept' } } });
    expect(r.status, r.text).toBe(201);
    const read = await t.get(`/api/clips/${r.body.data.documentId}`);
    expect(read.body.data).toMatchObject({ kind: 'text', url: 'https://example.com/kept' });
  });

  it('when the condition holds, the field is required as usual; with no value for the condition, it is hidden', async () => {
    const r = await t.request('POST', '/api/clips', { body: { data: { kind: 'video' } } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(required(['url']));
    const noKind = await t.request('POST', '/api/clips', { body: { data: { title: 'No kind' } } });
    expect(noKind.status, noKind.text).toBe(201);
    const draft = await t.request('POST', '/api/clips?status=draft', { body: { data: { kind: 'video' } } });
    expect(draft.status, draft.text).toBe(201);
  });

  it('an update that makes the condition hold checks the whole published version', async () => {
    const r = await t.request('POST', '/api/clips', { body: { data: { kind: 'text' } } });
    const id = r.body.data.documentId as string;
    const toVideo = await t.request('PUT', `/api/clips/${id}`, { body: { data: { kind: 'video' } } });
    expect(toVideo.status).toBe(400);
    expect(toVideo.body).toEqual(required(['url']));
    const withUrl = await t.request('PUT', `/api/clips/${id}`, { body: { data: { kind: 'video', url: 'https://example.com/v' } } });
    expect(withUrl.status, withUrl.text).toBe(200);
  });

  it('a hidden uid is not held to uniqueness; a visible one is', async () => {
    for (const title of ['a', 'b']) {
      const hidden = await t.request('POST', '/api/clips', { body: { data: { kind: 'text', title, code: 'hidden-code' } } });
      expect(hidden.status, hidden.text).toBe(201);
    }
    const first = await t.request('POST', '/api/clips', { body: { data: { kind: 'video', url: 'u', code: 'shown-code' } } });
    expect(first.status, first.text).toBe(201);
    const second = await t.request('POST', '/api/clips', { body: { data: { kind: 'video', url: 'u', code: 'shown-code' } } });
    expect(second.status).toBe(400);
    expect(second.body.error.details.errors).toEqual([{ path: ['code'], message: 'This attribute must be unique', name: 'ValidationError', value: 'shown-code' }]);
  });

  it("a component field's condition reads the values of its own item", async () => {
    const ok = await t.request('POST', '/api/clips', { body: { data: { kind: 'text', steps: [{ mode: 'image' }, { mode: 'text', caption: 'Read' }] } } });
    expect(ok.status, ok.text).toBe(201);
    const missing = await t.request('POST', '/api/clips', { body: { data: { kind: 'text', steps: [{ mode: 'image' }, { mode: 'text' }] } } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(required(['steps', '1', 'caption']));
  });
});

describe('conditional fields in schema files', () => {
  const at = 'src/api/clip/content-types/clip/schema.json';
  const withUrl = (url: unknown): string => JSON.stringify({ kind: 'collectionType', info: { singularName: 'clip', pluralName: 'clips' }, attributes: { url } });

  it('a type with conditions loads, the rule kept on its attribute', () => {
    const model = loadModel(project(FILES));
    expect(model.contentTypes.get('api::clip.clip')?.attributes.get('url')?.visible).toEqual(WHEN_VIDEO.visible);
  });

  it('conditions that are not an object, or a rule JSON Logic cannot run, are schema problems', () => {
    const cases: [unknown, string][] = [
      [['kind'], '"conditions" must be an object'],
      [{ visible: 'kind == video' }, '"conditions.visible" must be a JSON Logic rule (an object such as {"==": [{"var": "kind"}, "video"]})'],
      [{ visible: { kind_is: [{ var: 'kind' }, 'video'] } }, '"conditions.visible" can\'t be evaluated: Unrecognized operation kind_is'],
    ];
    for (const [conditions, problem] of cases) {
      let error: unknown;
      try {
        loadModel(project({ [at]: withUrl({ type: 'string', conditions }) }));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SchemaError);
      expect((error as Error).message).toBe(`${at}: attribute "url": ${problem}`);
    }
  });
});
