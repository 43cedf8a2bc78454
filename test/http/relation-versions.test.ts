// Which version of a draft & publish document a relation shows, and which versions a write changes.
// A link from a type without draft & publish that names its target's status shows in reads of that
// status only (Strapi links that version's row); a draft write that takes a one-to-one target from
// another document takes it from that document's draft only, its published version keeping it until
// the write is published. Steps and answers from the reference (Strapi 5.54 on PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const schema = (name: string, plural: string, draftAndPublish: boolean, attributes: Record<string, unknown>) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: name, pluralName: plural },
    options: { draftAndPublish },
    attributes: { title: { type: 'string' }, ...attributes },
  });

const FILES = {
  'src/api/label/content-types/label/schema.json': schema('label', 'labels', true, {}),
  'src/api/item/content-types/item/schema.json': schema('item', 'items', false, { labels: { type: 'relation', relation: 'manyToMany', target: 'api::label.label' } }),
  'src/api/note/content-types/note/schema.json': schema('note', 'notes', true, { post: { type: 'relation', relation: 'oneToOne', target: 'api::post.post', mappedBy: 'note' } }),
  'src/api/post/content-types/post/schema.json': schema('post', 'posts', true, { note: { type: 'relation', relation: 'oneToOne', target: 'api::note.note', inversedBy: 'post' } }),
  'src/components/rv/tagged.json': JSON.stringify({
    collectionName: 'components_rv_taggeds',
    info: { displayName: 'tagged' },
    attributes: { label: { type: 'relation', relation: 'oneToOne', target: 'api::label.label' }, labels: { type: 'relation', relation: 'oneToMany', target: 'api::label.label' } },
  }),
  'src/api/sheet/content-types/sheet/schema.json': schema('sheet', 'sheets', true, { parts: { type: 'component', component: 'rv.tagged', repeatable: true } }),
  'src/api/leaf/content-types/leaf/schema.json': schema('leaf', 'leaves', false, { parts: { type: 'component', component: 'rv.tagged', repeatable: true } }),
};

let t: TestApp;
beforeAll(async () => {
  t = await startExampleWith(FILES);
});
afterAll(async () => {
  await t?.close();
});

async function ok(method: string, path: string, data: Record<string, unknown>): Promise<{ documentId: string }> {
  const r = await t.request(method, path, { body: { data } });
  expect(r.status, r.text).toBeLessThan(300);
  return r.body.data as { documentId: string };
}

const titles = async (path: string): Promise<string[]> => {
  const r = await t.get(path);
  expect(r.status, r.text).toBe(200);
  return (r.body.data.labels as { title: string }[]).map((l) => l.title);
};

describe('a link naming its target status', () => {
  it('to the draft shows in draft reads only, never in a published read, nor its later draft edits', async () => {
    const label = await ok('POST', '/api/labels', { title: 'pinned' });
    const item = await ok('POST', '/api/items', { title: 'i', labels: { connect: [{ documentId: label.documentId, status: 'draft' }] } });
    const read = (q: string) => titles(`/api/items/${item.documentId}?populate[labels][fields][0]=title${q}`);
    expect(await read('')).toEqual([]);
    expect(await read('&status=draft')).toEqual(['pinned']);
    await ok('PUT', `/api/labels/${label.documentId}?status=draft`, { title: 'pinned draft edit' });
    expect(await read('')).toEqual([]);
    expect(await read('&status=draft')).toEqual(['pinned draft edit']);
    // nor through a filter
    const filtered = await t.get(`/api/items?filters[labels][title][$eq]=pinned draft edit&fields[0]=title`);
    expect(filtered.body.data).toEqual([]);
  });

  it('to the published version shows in published reads only', async () => {
    const label = await ok('POST', '/api/labels', { title: 'live' });
    const item = await ok('POST', '/api/items', { title: 'j', labels: { connect: [{ documentId: label.documentId, status: 'published' }] } });
    const read = (q: string) => titles(`/api/items/${item.documentId}?populate[labels][fields][0]=title${q}`);
    expect(await read('')).toEqual(['live']);
    expect(await read('&status=draft')).toEqual([]);
  });
});

describe('a link naming one version where the other is linked (Strapi 5.54 links each version on its own)', () => {
  const published = async (title: string) => (await t.request('POST', '/api/labels?status=published', { body: { data: { title } } })).body.data.documentId as string;

  it('a connect naming the draft adds it to a link holding both, or the published one: the published link stays', async () => {
    const [y, w] = [await published('Y'), await published('W')];
    const item = await ok('POST', '/api/items', { title: 'versions', labels: { connect: [y] } });
    const read = (q: string) => titles(`/api/items/${item.documentId}?populate[labels][fields][0]=title${q}`);
    const put = (labels: unknown) => ok('PUT', `/api/items/${item.documentId}`, { labels });
    await put({ connect: [{ documentId: y, status: 'draft' }] });
    expect([await read(''), await read('&status=draft')]).toEqual([['Y'], ['Y']]);
    // a connect naming the published version where only the draft is linked: both, placed where it says
    await put({ disconnect: [{ documentId: y, status: 'published' }] });
    expect([await read(''), await read('&status=draft')]).toEqual([[], ['Y']]);
    await put({ connect: [w, { documentId: y, status: 'published', position: { start: true } }] });
    expect([await read(''), await read('&status=draft')]).toEqual([
      ['Y', 'W'],
      ['Y', 'W'],
    ]);
    // a disconnect naming one version leaves the other; one naming none removes both
    await put({ disconnect: [{ documentId: y, status: 'draft' }] });
    expect([await read(''), await read('&status=draft')]).toEqual([['Y', 'W'], ['W']]);
    await put({ disconnect: [y] });
    expect([await read(''), await read('&status=draft')]).toEqual([['W'], ['W']]);
  });

  it('one connect or set may name both versions of one document; the same version twice is refused', async () => {
    const y = await published('Both');
    const item = await ok('POST', '/api/items', {
      title: 'both',
      labels: {
        connect: [
          { documentId: y, status: 'draft' },
          { documentId: y, status: 'published' },
        ],
      },
    });
    const read = (q: string) => titles(`/api/items/${item.documentId}?populate[labels][fields][0]=title${q}`);
    expect([await read(''), await read('&status=draft')]).toEqual([['Both'], ['Both']]);
    await ok('PUT', `/api/items/${item.documentId}`, {
      labels: {
        set: [
          { documentId: y, status: 'published' },
          { documentId: y, status: 'draft' },
        ],
      },
    });
    expect([await read(''), await read('&status=draft')]).toEqual([['Both'], ['Both']]);
    const duplicate = `The relation with id ${y} is already connected. You cannot connect the same relation twice.`;
    for (const labels of [
      {
        connect: [
          { documentId: y, status: 'draft' },
          { documentId: y, status: 'draft' },
        ],
      },
      { set: [y, { documentId: y, status: 'draft' }] },
      {
        set: [
          { documentId: y, status: 'draft' },
          { documentId: y, status: 'published' },
          { documentId: y, status: 'draft' },
        ],
      },
    ]) {
      const twice = await t.request('PUT', `/api/items/${item.documentId}`, { body: { data: { labels } } });
      expect([twice.status, twice.body.error?.message], JSON.stringify(labels)).toEqual([400, duplicate]);
    }
  });
});

describe('a one-to-one target taken by a draft write', () => {
  it("is taken from the other document's draft only; its published version keeps it until the write is published", async () => {
    const note = await ok('POST', '/api/notes', { title: 'n' });
    const p = await ok('POST', '/api/posts', { title: 'p', note: note.documentId });
    const q = await ok('POST', '/api/posts', { title: 'q' });
    await ok('PUT', `/api/posts/${q.documentId}?status=draft`, { note: note.documentId });
    const noteOf = async (post: string, status = '') => (await t.get(`/api/posts/${post}?populate[note][fields][0]=title${status}`)).body.data.note as { title: string } | null;
    const postOf = async (status = '') => (await t.get(`/api/notes/${note.documentId}?populate[post][fields][0]=title${status}`)).body.data.post as { title: string } | null;
    expect(await noteOf(p.documentId)).toMatchObject({ title: 'n' });
    expect(await postOf()).toMatchObject({ title: 'p' });
    expect(await noteOf(p.documentId, '&status=draft')).toBeNull();
    expect(await noteOf(q.documentId, '&status=draft')).toMatchObject({ title: 'n' });
    expect(await postOf('&status=draft')).toMatchObject({ title: 'q' });
    expect(await noteOf(q.documentId)).toBeNull();

    // publishing the write moves the published link too
    await ok('PUT', `/api/posts/${q.documentId}`, {});
    expect(await noteOf(q.documentId)).toMatchObject({ title: 'n' });
    expect(await noteOf(p.documentId)).toBeNull();
    expect(await postOf()).toMatchObject({ title: 'q' });
  });
});

describe('a link from a component', () => {
  const partsOf = async (path: string, status: string): Promise<unknown> => {
    const r = await t.get(`${path}?status=${status}&populate[parts][populate][label][fields][0]=title&populate[parts][populate][labels][fields][0]=title`);
    expect(r.status, r.text).toBe(200);
    return (r.body.data.parts as { label: unknown; labels: unknown }[]).map((p) => ({ label: p.label, labels: p.labels }));
  };
  const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x) => (k === 'id' || k === 'documentId' ? undefined : x)));

  it('in an entry with draft & publish follows the status read, whatever version a row id or a status named', async () => {
    const label = await ok('POST', '/api/labels', { title: 'L' });
    const draftRow = (await t.get(`/api/labels/${label.documentId}?status=draft`)).body.data.id as number;
    const byRow = await ok('POST', '/api/sheets', { title: 's', parts: [{ label: draftRow, labels: [draftRow] }] });
    const byStatus = await ok('POST', '/api/sheets', { title: 's', parts: [{ labels: { connect: [{ documentId: label.documentId, status: 'draft' }] } }] });
    await ok('PUT', `/api/labels/${label.documentId}?status=draft`, { title: 'L draft edit' });
    const shown = (title: string, both: boolean) => [{ label: both ? { title } : null, labels: [{ title }] }];
    for (const status of ['published', 'draft']) {
      const title = status === 'draft' ? 'L draft edit' : 'L';
      expect(strip(await partsOf(`/api/sheets/${byRow.documentId}`, status)), status).toEqual(shown(title, true));
      expect(strip(await partsOf(`/api/sheets/${byStatus.documentId}`, status)), status).toEqual(shown(title, false));
    }
  });

  it('in an entry without draft & publish keeps the version a row id or a status named', async () => {
    const label = await ok('POST', '/api/labels', { title: 'M' });
    const draftRow = (await t.get(`/api/labels/${label.documentId}?status=draft`)).body.data.id as number;
    const leaf = await ok('POST', '/api/leaves', { title: 'l', parts: [{ label: draftRow, labels: { connect: [{ documentId: label.documentId, status: 'draft' }] } }] });
    expect(strip(await partsOf(`/api/leaves/${leaf.documentId}`, 'published'))).toEqual([{ label: null, labels: [] }]);
    expect(strip(await partsOf(`/api/leaves/${leaf.documentId}`, 'draft'))).toEqual([{ label: { title: 'M' }, labels: [{ title: 'M' }] }]);
  });
});
