// §6.3 and the contract's "Relation payload" rules 1–7: every accepted form and every error,
// plus media values (§13 #6: relation operations on media are refused, not ignored).
import { describe, expect, it } from 'vitest';
import { article, author, caught, check, homepage } from './helpers.js';

const relation = (name: string, value: unknown, schema = article) => check({ [name]: value }, schema).relations.get(name);
const media = (name: string, value: unknown) => check({ [name]: value }).media.get(name);
/** A plain 400 ValidationError (no details.errors). */
const refused = (data: Record<string, unknown>, schema = article) => {
  const e = caught(() => check(data, schema));
  expect(e).toMatchObject({ name: 'ValidationError', status: 400 });
  expect(e.details).toEqual({});
  return e.message;
};

describe('relation value forms', () => {
  it('a documentId string sets the relation', () => {
    expect(relation('author', 'docA')).toEqual({ kind: 'set', items: [{ documentId: 'docA' }] });
  });

  it('an array of documentIds sets the relation in order', () => {
    expect(relation('tags', ['b', 'a', 'c'])).toEqual({ kind: 'set', items: [{ documentId: 'b' }, { documentId: 'a' }, { documentId: 'c' }] });
  });

  it('{documentId} objects, alone or in an array, set the relation', () => {
    expect(relation('author', { documentId: 'a' })).toEqual({ kind: 'set', items: [{ documentId: 'a' }] });
    expect(relation('tags', [{ documentId: 'a' }, 'b'])).toEqual({ kind: 'set', items: [{ documentId: 'a' }, { documentId: 'b' }] });
  });

  it('numbers and {id} are row ids', () => {
    expect(relation('author', 5)).toEqual({ kind: 'set', items: [{ id: 5 }] });
    expect(relation('tags', [5, { id: 7 }, { id: '9' }])).toEqual({ kind: 'set', items: [{ id: 5 }, { id: 7 }, { id: 9 }] });
  });

  it('a string of digits is still a documentId (only numbers are row ids)', () => {
    expect(relation('author', '5')).toEqual({ kind: 'set', items: [{ documentId: '5' }] });
  });

  it('when an item has both documentId and id, the documentId is used (an echoed populated relation)', () => {
    expect(relation('author', { id: 3, documentId: 'a' })).toEqual({ kind: 'set', items: [{ documentId: 'a' }] });
  });

  it('{set}, {connect}, {disconnect} and {connect, disconnect}', () => {
    expect(relation('tags', { set: ['a', 'b'] })).toEqual({ kind: 'set', items: [{ documentId: 'a' }, { documentId: 'b' }] });
    expect(relation('tags', { connect: ['a'] })).toEqual({ kind: 'change', connect: [{ documentId: 'a' }], disconnect: [] });
    expect(relation('tags', { disconnect: ['a', { documentId: 'b' }] })).toEqual({ kind: 'change', connect: [], disconnect: [{ documentId: 'a' }, { documentId: 'b' }] });
    expect(relation('tags', { connect: [{ documentId: 'a' }], disconnect: [{ id: 4 }] })).toEqual({ kind: 'change', connect: [{ documentId: 'a' }], disconnect: [{ id: 4 }] });
  });

  it('a lone item under an operation counts as a list of one', () => {
    expect(relation('tags', { connect: 'a', disconnect: 7 })).toEqual({ kind: 'change', connect: [{ documentId: 'a' }], disconnect: [{ id: 7 }] });
  });

  it('null, [] and {set: []} clear', () => {
    for (const v of [null, [], { set: [] }]) expect(relation('tags', v)).toEqual({ kind: 'set', items: [] });
    expect(relation('author', null)).toEqual({ kind: 'set', items: [] });
  });

  it('{} changes nothing', () => {
    expect(relation('tags', {})).toEqual({ kind: 'change', connect: [], disconnect: [] });
  });

  it('longhand items keep locale, status and position', () => {
    expect(
      relation('tags', {
        connect: [
          { documentId: 'a', locale: 'fr', status: 'published', position: { before: 'b' } },
          { documentId: 'c', position: { start: true } },
          { documentId: 'd', position: { after: 'c' } },
          { documentId: 'e', position: { end: true } },
        ],
      }),
    ).toEqual({
      kind: 'change',
      disconnect: [],
      connect: [
        { documentId: 'a', locale: 'fr', status: 'published', position: { before: 'b' } },
        { documentId: 'c', position: { start: true } },
        { documentId: 'd', position: { after: 'c' } },
        { documentId: 'e', position: { end: true } },
      ],
    });
  });

  it('options {strict} is kept with the change; without it strictness is left to the write', () => {
    expect(relation('tags', { connect: ['a'], options: { strict: false } })).toEqual({ kind: 'change', connect: [{ documentId: 'a' }], disconnect: [], strict: false });
    expect(relation('tags', { connect: ['a'], options: {} })).toEqual({ kind: 'change', connect: [{ documentId: 'a' }], disconnect: [] });
  });

  it('inverse (mappedBy) sides and relations inside components take the same forms', () => {
    expect(relation('articles', { connect: ['x'] }, author)).toEqual({ kind: 'change', connect: [{ documentId: 'x' }], disconnect: [] });
    const d = check({ blocks: [{ __component: 'shared.quote', person: 'p1' }] });
    expect(d.zones.get('blocks')?.[0]?.data.relations.get('person')).toEqual({ kind: 'set', items: [{ documentId: 'p1' }] });
  });
});

describe('to-one relations keep only the last entry (rule 4)', () => {
  it('manyToOne and oneToOne given a list keep the last item', () => {
    expect(relation('author', ['a', 'b', 'c'])).toEqual({ kind: 'set', items: [{ documentId: 'c' }] });
    expect(relation('editor', [1, 2])).toEqual({ kind: 'set', items: [{ id: 2 }] });
  });

  it('connect and set on a to-one keep the last item; disconnect keeps all', () => {
    expect(relation('author', { connect: ['a', 'b'] })).toEqual({ kind: 'change', connect: [{ documentId: 'b' }], disconnect: [] });
    expect(relation('author', { set: ['a', 'b'] })).toEqual({ kind: 'set', items: [{ documentId: 'b' }] });
    expect(relation('author', { disconnect: ['a', 'b'] })).toEqual({ kind: 'change', connect: [], disconnect: [{ documentId: 'a' }, { documentId: 'b' }] });
  });

  it('the same target twice on a to-one is just that target', () => {
    expect(relation('author', { connect: ['a', 'a'] })).toEqual({ kind: 'change', connect: [{ documentId: 'a' }], disconnect: [] });
  });

  it('to-many relations keep every item', () => {
    expect(relation('featured', ['a', 'b'], homepage)).toEqual({ kind: 'set', items: [{ documentId: 'a' }, { documentId: 'b' }] });
  });
});

describe('relation errors', () => {
  it('set combined with connect or disconnect (rule 1)', () => {
    expect(refused({ tags: { set: ['a'], connect: ['b'] } })).toBe('Invalid relation value in tags: set cannot be combined with connect or disconnect');
    expect(refused({ tags: { set: [], disconnect: ['b'] } })).toBe('Invalid relation value in tags: set cannot be combined with connect or disconnect');
  });

  it('connecting the same target twice, exact duplicates included (rule 3)', () => {
    expect(refused({ tags: { connect: ['a', 'a'] } })).toBe('The relation with id a is already connected. You cannot connect the same relation twice.');
    expect(refused({ tags: { connect: ['a', { documentId: 'a', position: { start: true } }] } })).toBe(
      'The relation with id a is already connected. You cannot connect the same relation twice.',
    );
    expect(refused({ tags: { connect: [5, { id: 5 }] } })).toBe('The relation with id 5 is already connected. You cannot connect the same relation twice.');
  });

  it('the same target twice in a set or a shorthand list', () => {
    expect(refused({ tags: ['a', 'b', 'a'] })).toBe('The relation with id a is already connected. You cannot connect the same relation twice.');
    expect(refused({ tags: { set: [{ documentId: 'b' }, 'b'] } })).toBe('The relation with id b is already connected. You cannot connect the same relation twice.');
  });

  it('a position that is not exactly one of before/after/start/end', () => {
    const message = (p: string) => `Invalid position in tags: expected exactly one of {before: documentId}, {after: documentId}, {start: true}, {end: true} but got ${p}`;
    expect(refused({ tags: { connect: [{ documentId: 'a', position: { before: 'b', after: 'c' } }] } })).toBe(message('{"before":"b","after":"c"}'));
    expect(refused({ tags: { connect: [{ documentId: 'a', position: { start: false } }] } })).toBe(message('{"start":false}'));
    expect(refused({ tags: { connect: [{ documentId: 'a', position: { middle: true } }] } })).toBe(message('{"middle":true}'));
    expect(refused({ tags: { connect: [{ documentId: 'a', position: {} }] } })).toBe(message('{}'));
    expect(refused({ tags: { connect: [{ documentId: 'a', position: 'start' }] } })).toBe(message('"start"'));
    expect(refused({ tags: { connect: [{ documentId: 'a', position: { before: '' } }] } })).toBe(message('{"before":""}'));
    expect(refused({ tags: { connect: [{ documentId: 'a', position: { before: 'b', locale: 5 } }] } })).toBe(message('{"before":"b","locale":5}'));
    expect(refused({ tags: { connect: [{ documentId: 'a', position: { end: true, status: 'live' } }] } })).toBe(message('{"end":true,"status":"live"}'));
    expect(refused({ tags: { connect: [{ documentId: 'a', position: { locale: 'fr' } }] } })).toBe(message('{"locale":"fr"}'));
  });

  it("a position may name its anchor's locale and status, as Strapi 5.54 reads them", () => {
    expect(relation('tags', { connect: [{ documentId: 'a', locale: 'fr', position: { before: 'b', locale: 'en', status: 'draft' } }] })).toEqual({
      kind: 'change',
      connect: [{ documentId: 'a', locale: 'fr', position: { before: 'b', locale: 'en', status: 'draft' } }],
      disconnect: [],
    });
    expect(relation('tags', { connect: [{ documentId: 'a', position: { end: true, locale: 'fr' } }] })).toMatchObject({ connect: [{ position: { end: true, locale: 'fr' } }] });
  });

  it('before/after chains that loop inside one connect array', () => {
    const circular = 'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it';
    expect(
      refused({
        tags: {
          connect: [
            { documentId: 'a', position: { before: 'b' } },
            { documentId: 'b', position: { after: 'a' } },
          ],
        },
      }),
    ).toBe(circular);
    expect(refused({ tags: { connect: [{ documentId: 'a', position: { before: 'a' } }] } })).toBe(circular);
    expect(
      relation('tags', {
        connect: [
          { documentId: 'a', position: { before: 'b' } },
          { documentId: 'b', position: { before: 'c' } },
        ],
      }),
    ).toMatchObject({ kind: 'change' });
  });

  it('a chain of as many positions as a write may name is checked in one walk, a loop at its end still found', () => {
    // each item placed before the previous one: walking the rest of the chain again from every item took
    // 10^8 steps, 50 s of a server's event loop for one 900 KB body of made-up ids
    const n = 10_000;
    const chain = (loopBack: boolean) =>
      Array.from({ length: n }, (_, i) => ({
        documentId: `d${i}`,
        ...(i > 0 ? { position: { before: `d${i - 1}` } } : loopBack ? { position: { after: `d${n - 1}` } } : {}),
      }));
    expect(relation('tags', { connect: chain(false) })).toMatchObject({ kind: 'change' });
    expect(refused({ tags: { connect: chain(true) } })).toMatch(/^A circular reference was found/);
  });

  it('a status other than draft or published', () => {
    expect(refused({ tags: { connect: [{ documentId: 'a', status: 'live' }] } })).toBe('Invalid status in tags: expected "draft" or "published" but got "live"');
  });

  it('a locale that is not a string', () => {
    expect(refused({ tags: [{ documentId: 'a', locale: 5 }] })).toBe('Invalid locale in tags: expected a locale code but got 5');
  });

  it('items that are neither a documentId, a row id, {documentId} nor {id}', () => {
    const bad = (v: string) => `Invalid relation value in tags: expected a documentId, a row id, {documentId} or {id} but got ${v}`;
    expect(refused({ tags: [true] })).toBe(bad('true'));
    expect(refused({ tags: [''] })).toBe(bad('""'));
    expect(refused({ tags: [1.5] })).toBe(bad('1.5'));
    expect(refused({ tags: [[1]] })).toBe(bad('[1]'));
    expect(refused({ tags: [{ documentId: 5 }] })).toBe(bad('{"documentId":5}'));
    expect(refused({ tags: [{ id: 'abc' }] })).toBe(bad('{"id":"abc"}'));
    expect(refused({ author: true })).toBe('Invalid relation value in author: expected a documentId, a row id, {documentId} or {id} but got true');
    // a message repeats at most 200 characters of what it was sent
    expect(refused({ tags: [{ id: 'x'.repeat(5000) }] })).toBe(bad(`${`{"id":"${'x'.repeat(5000)}`.slice(0, 200)}…`));
  });

  it('zero and negative row ids pass (the write finds no such row and says so, as Strapi does), and a null in a list names nothing', () => {
    expect(relation('tags', [0, null])).toEqual({ kind: 'set', items: [{ id: 0 }] });
    expect(relation('tags', { connect: [null, -1], disconnect: [null] })).toEqual({ kind: 'change', connect: [{ id: -1 }], disconnect: [] });
    expect(relation('author', '0')).toEqual({ kind: 'set', items: [{ documentId: '0' }] });
    expect(relation('tags', [null])).toEqual({ kind: 'set', items: [] });
  });

  it('options that are not {strict: boolean}', () => {
    expect(refused({ tags: { connect: ['a'], options: { strict: 'yes' } } })).toBe('Invalid options in tags: expected {strict: true|false} but got {"strict":"yes"}');
  });

  it('errors inside components name the field with its yup path', () => {
    expect(
      refused({
        blocks: [
          { __component: 'shared.rich-text', body: 'x' },
          { __component: 'shared.quote', person: { set: ['a'], connect: ['b'] } },
        ],
      }),
    ).toBe('Invalid relation value in blocks[1].person: set cannot be combined with connect or disconnect');
  });

  it('relation errors are reported before field errors (Strapi resolves relations before validating)', () => {
    expect(refused({ views: 'abc', tags: ['a', 'a'] })).toBe('The relation with id a is already connected. You cannot connect the same relation twice.');
  });
});

describe('media values', () => {
  it('a file id, {id}, a documentId or {documentId} for a single media', () => {
    expect(media('cover', 1)).toEqual([{ id: 1 }]);
    expect(media('cover', { id: 2 })).toEqual([{ id: 2 }]);
    expect(media('cover', 'fileDoc')).toEqual([{ documentId: 'fileDoc' }]);
    expect(media('cover', { documentId: 'fileDoc' })).toEqual([{ documentId: 'fileDoc' }]);
    expect(media('cover', '7')).toEqual([{ id: 7 }]);
    expect(media('cover', [3])).toEqual([{ id: 3 }]);
  });

  it('arrays of these for a multiple media, in order', () => {
    expect(media('gallery', [3, { id: 1 }, 'd', { documentId: 'e' }])).toEqual([{ id: 3 }, { id: 1 }, { documentId: 'd' }, { documentId: 'e' }]);
  });

  it('null and [] clear', () => {
    expect(media('cover', null)).toBeNull();
    expect(media('gallery', [])).toEqual([]);
  });

  it('connect (and the other relation operations) on media is a 400, not ignored', () => {
    expect(refused({ gallery: { connect: [1] } })).toBe('connect is not supported for media attributes (gallery): send the file ids');
    expect(refused({ cover: { connect: [{ id: 1 }] } })).toBe('connect is not supported for media attributes (cover): send the file ids');
    expect(refused({ gallery: { disconnect: [1] } })).toBe('disconnect is not supported for media attributes (gallery): send the file ids');
    expect(refused({ gallery: { set: [1] } })).toBe('set is not supported for media attributes (gallery): send the file ids');
    expect(refused({ seo: { metaTitle: 'm', shareImage: { connect: [1] } } })).toBe('connect is not supported for media attributes (seo.shareImage): send the file ids');
  });

  it('a single media given several files', () => {
    expect(refused({ cover: [1, 2] })).toBe('cover holds a single file: send one file id, not 2');
  });

  it('a value that is no file reference', () => {
    expect(refused({ gallery: [1, true] })).toBe('Invalid media value in gallery: expected a file id, a file documentId, {id} or {documentId} but got true');
    expect(refused({ cover: { id: 1.5 } })).toBe('Invalid media value in cover: expected a file id, a file documentId, {id} or {documentId} but got {"id":1.5}');
  });

  it('a null in a list of files names nothing; zero, negative and digit-string ids are ids, as in Strapi 5.54', () => {
    expect(media('gallery', [1, null])).toEqual([{ id: 1 }]);
    expect(media('cover', [null])).toEqual([]);
    expect(media('cover', 0)).toEqual([{ id: 0 }]);
    expect(media('cover', '0')).toEqual([{ id: 0 }]);
    expect(media('gallery', [{ id: -1 }])).toEqual([{ id: -1 }]);
  });

  it('media inside components and dynamic-zone entries', () => {
    const d = check({
      blocks: [
        { __component: 'shared.slider', files: [2, 1] },
        { __component: 'shared.media', file: 4 },
      ],
    });
    const [slider, single] = d.zones.get('blocks') ?? [];
    expect(slider?.data.media.get('files')).toEqual([{ id: 2 }, { id: 1 }]);
    expect(single?.data.media.get('file')).toEqual([{ id: 4 }]);
  });
});
