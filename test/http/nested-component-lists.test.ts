// Component lists inside component lists (a page's zone of sections, each holding cards that name an
// author and show an image) are written a level at a time: all the sections' cards together, whatever the
// number of sections. Written a section at a time, each section's cards cost their own reads, inserts,
// look-ups and link writes.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR, startTestApp, writeDocument, type TestApp } from '../support/app.js';
import { uploadTinyPng } from '../support/tiny-png.js';

let root: string;
let t: TestApp;
const authors: string[] = [];
const files: number[] = [];

const json = (path: string, value: unknown): void => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-nested-lists-'));
  cpSync(EXAMPLE_DIR, root, { recursive: true });
  json(join(root, 'src/components/blocks/card.json'), {
    collectionName: 'components_blocks_cards',
    info: { displayName: 'Card' },
    attributes: {
      label: { type: 'string' },
      author: { type: 'relation', relation: 'oneToOne', target: 'api::author.author' },
      image: { type: 'media', multiple: false, allowedTypes: ['images'] },
      gallery: { type: 'media', multiple: true, allowedTypes: ['images'] },
    },
  });
  json(join(root, 'src/components/blocks/section.json'), {
    collectionName: 'components_blocks_sections',
    info: { displayName: 'Section' },
    attributes: { heading: { type: 'string' }, cards: { type: 'component', repeatable: true, component: 'blocks.card' } },
  });
  json(join(root, 'src/api/page/content-types/page/schema.json'), {
    kind: 'collectionType',
    collectionName: 'pages',
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' }, sections: { type: 'dynamiczone', components: ['blocks.section', 'shared.media'] } },
  });
  t = await startTestApp({ dir: root });
  for (let i = 0; i < 6; i++) authors.push(await writeDocument(t, 'POST', '/api/authors', { name: `author ${i}`, email: `nested${i}@example.com` }));
  for (const name of ['a.png', 'b.png']) files.push(await uploadTinyPng(t, name));
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

type Card = { id: number; label: string; author: { documentId: string } | null; image: { id: number } | null };
type Section = { id: number; heading: string; cards: Card[] };

const card = (s: number, c: number, shift: number) => ({ label: `card ${s}.${c}`, author: authors[(s + c + shift) % authors.length], image: files[(s + c + shift) % 2] });
const sections = (n: number, shift = 0) =>
  Array.from({ length: n }, (_, s) => ({ __component: 'blocks.section', heading: `section ${s}`, cards: [0, 1, 2].map((c) => card(s, c, shift)) }));

async function cost(method: string, path: string, data: Record<string, unknown>): Promise<{ documentId: string; statements: number }> {
  const before = t.dataStatements();
  const documentId = await writeDocument(t, method, path, data);
  return { documentId, statements: t.dataStatements() - before };
}

async function read(documentId: string, status: 'draft' | 'published'): Promise<Section[]> {
  const r = await t.get(`/api/pages/${documentId}?status=${status}&populate[sections][on][blocks.section][populate][cards][populate]=*`);
  expect(r.status, r.text).toBe(200);
  return r.body.data.sections;
}

const shape = (list: Section[]) => list.map((s) => ({ heading: s.heading, cards: s.cards.map((c) => [c.label, c.author?.documentId ?? null, c.image?.id ?? null]) }));
const sent = (list: ReturnType<typeof sections>) => list.map((s) => ({ heading: s.heading, cards: s.cards.map((c) => [c.label, c.author, c.image]) }));

describe('component lists inside component lists', () => {
  it('20 sections of 3 cards are created, and updated keeping every row by id, in as many statements as 3 sections, but for the rows themselves', async () => {
    const { dialect } = t.app.database;
    // SQLite, in-process: each new row (sections and cards) and each published copy is a statement of its own
    const oneByOne = !dialect.idsFromSequence && dialect.consecutiveIds === null;
    const extraRows = 17 * 4;
    const few = await cost('POST', '/api/pages', { title: 'few', sections: sections(3) });
    const many = await cost('POST', '/api/pages', { title: 'many', sections: sections(20) });
    expect(many.statements - few.statements).toBe(oneByOne ? extraRows * 2 : 0);
    for (const status of ['draft', 'published'] as const) expect(shape(await read(many.documentId, status))).toEqual(sent(sections(20)));
    const keep = async (documentId: string, n: number) => {
      const stored = await read(documentId, 'draft');
      const next = sections(n, 1).map((s, i) => ({ ...s, id: stored[i]!.id, cards: s.cards.map((c, j) => ({ ...c, id: stored[i]!.cards[j]!.id })) }));
      return (await cost('PUT', `/api/pages/${documentId}`, { sections: next })).statements;
    };
    expect((await keep(many.documentId, 20)) - (await keep(few.documentId, 3))).toBe(oneByOne ? extraRows : 0);
    for (const status of ['draft', 'published'] as const) expect(shape(await read(many.documentId, status))).toEqual(sent(sections(20, 1)));
  });

  it('sections kept by id beside new ones keep their cards; cards left out are gone, new ones added, in order', async () => {
    const doc = await writeDocument(t, 'POST', '/api/pages?status=draft', { title: 'mixed', sections: sections(3) });
    const stored = await read(doc, 'draft');
    const next = [
      // the second section kept, its first card kept and given another author, its others dropped, one added
      {
        __component: 'blocks.section',
        id: stored[1]!.id,
        heading: 'kept',
        cards: [
          { id: stored[1]!.cards[0]!.id, label: 'kept card', author: authors[5] },
          { label: 'new card', author: authors[4] },
        ],
      },
      { __component: 'blocks.section', heading: 'new', cards: [{ label: 'fresh', author: authors[3] }] },
    ];
    await writeDocument(t, 'PUT', `/api/pages/${doc}?status=draft`, { sections: next });
    const after = await read(doc, 'draft');
    expect(after.map((s) => s.heading)).toEqual(['kept', 'new']);
    expect(after[0]!.id).toBe(stored[1]!.id);
    expect(after[0]!.cards.map((c) => [c.label, c.author?.documentId])).toEqual([
      ['kept card', authors[5]],
      ['new card', authors[4]],
    ]);
    expect(after[0]!.cards[0]!.id).toBe(stored[1]!.cards[0]!.id);
    // the kept card keeps its image, which the write didn't mention
    expect(after[0]!.cards[0]!.image?.id).toBe(stored[1]!.cards[0]!.image?.id);
    expect(after[1]!.cards.map((c) => c.label)).toEqual(['fresh']);
  });

  it('a section or card named three times holds what the last naming sent: its cards, its image and gallery', async () => {
    const doc = await writeDocument(t, 'POST', '/api/pages?status=draft', { title: 'thrice', sections: sections(1) });
    const [section] = await read(doc, 'draft');
    const cardId = section!.cards[0]!.id;
    const again = (heading: string, cards: unknown[]) => ({ __component: 'blocks.section', id: section!.id, heading, cards });
    await writeDocument(t, 'PUT', `/api/pages/${doc}?status=draft`, {
      sections: [
        again('a', [{ id: cardId, label: 'x', image: files[0], gallery: [files[0]] }]),
        again('b', [
          { id: cardId, label: 'y', image: files[1], gallery: [] },
          { id: cardId, label: 'z', image: files[0], gallery: [files[1], files[0]] },
        ]),
        again('c', [{ label: 'new' }]),
      ],
    });
    const [after] = await read(doc, 'draft');
    expect(after!.heading).toBe('c');
    expect(after!.cards.map((c) => c.label)).toEqual(['new']);
    // the middle naming's card, named three times inside it
    await writeDocument(t, 'PUT', `/api/pages/${doc}?status=draft`, {
      sections: [
        {
          __component: 'blocks.section',
          id: section!.id,
          cards: [
            { id: after!.cards[0]!.id, label: 'x', image: files[0], gallery: [files[0]] },
            { id: after!.cards[0]!.id, label: 'y', image: files[1], gallery: [] },
            { id: after!.cards[0]!.id, label: 'z', image: files[0], gallery: [files[1], files[0]] },
          ],
        },
      ],
    });
    const r = await t.get(`/api/pages/${doc}?status=draft&populate[sections][on][blocks.section][populate][cards][populate]=*`);
    const card = r.body.data.sections[0].cards;
    expect(card).toHaveLength(1);
    expect(card[0].label).toBe('z');
    expect(card[0].image.id).toBe(files[0]);
    expect(card[0].gallery.map((f: { id: number }) => f.id)).toEqual([files[1], files[0]]);
  });

  it("a file's related list shows the rows linking it in the order they were written row by row, in the draft and the published copy", async () => {
    const file = await uploadTinyPng(t, 'shared.png');
    const body = [
      { __component: 'shared.media', file },
      {
        __component: 'blocks.section',
        heading: 'h',
        cards: [
          { label: 'one', image: file },
          { label: 'two', image: file },
        ],
      },
      { __component: 'shared.media', file },
    ];
    const doc = await writeDocument(t, 'POST', '/api/pages', { title: 'related order', sections: body });
    const walk = ['shared.media', 'blocks.card one', 'blocks.card two', 'shared.media'];
    const related = async (): Promise<string[]> => {
      const r = await t.get(`/api/upload/files/${file}?populate=related`);
      expect(r.status, r.text).toBe(200);
      return (r.body.related as { __type: string; label?: string }[]).map((e) => `${e.__type}${e.label ? ` ${e.label}` : ''}`);
    };
    const created = await related();
    expect(created.length % walk.length).toBe(0);
    for (let i = 0; i < created.length; i += walk.length) expect(created.slice(i, i + walk.length)).toEqual(walk);
    // written again with new rows, and published again
    await writeDocument(t, 'PUT', `/api/pages/${doc}`, { sections: body });
    const updated = await related();
    expect(updated.length % walk.length).toBe(0);
    for (let i = 0; i < updated.length; i += walk.length) expect(updated.slice(i, i + walk.length)).toEqual(walk);
  });

  it("a card naming another section's card by id is refused, and nothing of the write stays", async () => {
    const doc = await writeDocument(t, 'POST', '/api/pages?status=draft', { title: 'strangers', sections: sections(2) });
    const stored = await read(doc, 'draft');
    const r = await t.request('PUT', `/api/pages/${doc}?status=draft`, {
      body: { data: { title: 'changed', sections: [{ __component: 'blocks.section', id: stored[0]!.id, cards: [{ id: stored[1]!.cards[0]!.id, label: 'moved' }] }] } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ status: 400, name: 'ApplicationError', message: 'Some of the provided components in cards are not related to the entity', details: {} });
    const after = await t.get(`/api/pages/${doc}?status=draft`);
    expect(after.body.data.title).toBe('strangers');
    expect(shape(await read(doc, 'draft'))).toEqual(shape(stored));
  });
});
