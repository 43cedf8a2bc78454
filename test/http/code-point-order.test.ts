// Strings are ordered by code point wherever Folio orders them: `sort`, the range operators
// (`$lt`, `$lte`, `$gt`, `$gte`, `$between`) and the smallest or largest of a to-many sort's values.
// On PostgreSQL the column is given an ICU collation first, as a database created with one would
// give it (found by the PostgreSQL query-language sweep: `$gt` followed the collation while `sort`
// didn't, so a client paging by the last title seen skipped and repeated rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { writeDocument, type TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';
import { testClient } from '../support/database.js';

const FILES = {
  'src/api/word/content-types/word/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'words',
    info: { singularName: 'word', pluralName: 'words' },
    options: { draftAndPublish: false },
    attributes: { text: { type: 'string' } },
  }),
  'src/api/shelf/content-types/shelf/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'shelves',
    info: { singularName: 'shelf', pluralName: 'shelves' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, words: { type: 'relation', relation: 'oneToMany', target: 'api::word.word' } },
  }),
};

const WORDS = ['apple', 'Apple', 'APPLE', 'Zebra', '_start', 'Äpfel', 'b', '_x'];
const byCodePoint = (list: string[]): string[] => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

let t: TestApp;
const ids = new Map<string, string>();
beforeAll(async () => {
  t = await startExampleWith(FILES);
  if (testClient() === 'postgres') {
    const { db } = t.app.services.database;
    await sql`alter table words alter column text type varchar(255) collate "und-x-icu"`.execute(db);
  }
  for (const w of WORDS) ids.set(w, await writeDocument(t, 'POST', '/api/words', { text: w }));
  await writeDocument(t, 'POST', '/api/shelves', { name: 'S1', words: [ids.get('apple'), ids.get('Zebra')] });
  await writeDocument(t, 'POST', '/api/shelves', { name: 'S2', words: [ids.get('_x')] });
});
afterAll(async () => {
  await t?.close();
});

const texts = async (query: string): Promise<string[]> => {
  const r = await t.get(`/api/words?${query}&sort=text:asc&pagination[pageSize]=100`);
  expect(r.status, r.text).toBe(200);
  return (r.body.data as { text: string }[]).map((d) => d.text);
};

describe('code-point order', () => {
  it('sort=text orders strings by code point', async () => {
    expect(await texts('')).toEqual(byCodePoint(WORDS));
  });

  it('$gt, $gte, $lt, $lte and $between agree with that order, so paging by the last value seen skips and repeats nothing', async () => {
    const sorted = byCodePoint(WORDS);
    for (const [i, w] of sorted.entries()) {
      const v = encodeURIComponent(w);
      expect(await texts(`filters[text][$gt]=${v}`), `$gt ${w}`).toEqual(sorted.slice(i + 1));
      expect(await texts(`filters[text][$gte]=${v}`), `$gte ${w}`).toEqual(sorted.slice(i));
      expect(await texts(`filters[text][$lt]=${v}`), `$lt ${w}`).toEqual(sorted.slice(0, i));
      expect(await texts(`filters[text][$lte]=${v}`), `$lte ${w}`).toEqual(sorted.slice(0, i + 1));
    }
    expect(await texts('filters[text][$between][0]=B&filters[text][$between][1]=b')).toEqual(['Zebra', '_start', '_x', 'apple', 'b']);
  });

  it('a sort through a to-many relation takes the smallest (asc) or largest (desc) linked value by code point', async () => {
    const shelves = async (dir: string): Promise<string[]> => {
      const r = await t.get(`/api/shelves?sort=words.text:${dir}`);
      expect(r.status, r.text).toBe(200);
      return (r.body.data as { name: string }[]).map((d) => d.name);
    };
    const held = await t.get('/api/shelves?populate[words][fields][0]=text&sort=name');
    expect(held.body.data.map((s: { words: { text: string }[] }) => s.words.map((w) => w.text))).toEqual([['apple', 'Zebra'], ['_x']]);
    // S1 holds "apple" and "Zebra", S2 "_x": by code point Zebra < _x < apple
    expect(await shelves('asc')).toEqual(['S1', 'S2']);
    expect(await shelves('desc')).toEqual(['S1', 'S2']);
  });
});
