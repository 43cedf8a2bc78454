// §6.1: the key checks on `data`, their messages and details, and their order.
import { describe, expect, it } from 'vitest';
import { abilityOf, article, author, check, gadget, rejection, tag } from './helpers.js';

const invalidKey = (message: string, details: Record<string, unknown>) => ({ name: 'ValidationError', status: 400, message, details });

describe('root id and documentId', () => {
  it('a root id is "Invalid key id" with details {key, source} and no path', () => {
    expect(rejection({ label: 'a', id: 3 }, tag)).toEqual(invalidKey('Invalid key id', { key: 'id', source: 'body' }));
  });

  it('a root documentId is "Invalid key documentId" with details {key, source} and no path', () => {
    expect(rejection({ label: 'a', documentId: 'x' }, tag)).toEqual(invalidKey('Invalid key documentId', { key: 'documentId', source: 'body' }));
  });

  it('id is reported before documentId and before any other bad key, whatever the key order', () => {
    expect(rejection({ foo: 1, createdAt: 'x', documentId: 'x', id: 1 }, tag).message).toBe('Invalid key id');
    expect(rejection({ foo: 1, createdAt: 'x', documentId: 'x' }, tag).message).toBe('Invalid key documentId');
  });
});

describe('non-writable keys', () => {
  it.each(['createdAt', 'updatedAt', 'createdBy', 'updatedBy'])('%s at the root is "Invalid key %s" with path = the key', (key) => {
    expect(rejection({ label: 'a', [key]: 'x' }, tag)).toEqual(invalidKey(`Invalid key ${key}`, { key, path: key, source: 'body' }));
  });

  it('localizations on a localized type is non-writable (path "localizations")', () => {
    expect(rejection({ title: 'a', localizations: [] })).toEqual(invalidKey('Invalid key localizations', { key: 'localizations', path: 'localizations', source: 'body' }));
  });

  it('localizations on a type without i18n is non-writable too (path "localizations"), before an unknown key that comes first, as Strapi 5.54 answers', () => {
    expect(rejection({ label: 'a', localizations: [] }, tag)).toEqual(invalidKey('Invalid key localizations', { key: 'localizations', path: 'localizations', source: 'body' }));
    expect(rejection({ foo: 1, label: 'a', localizations: [] }, tag)).toEqual(
      invalidKey('Invalid key localizations', { key: 'localizations', path: 'localizations', source: 'body' }),
    );
  });

  it('an attribute with writable:false is rejected at the root', () => {
    expect(rejection({ name: 'abc', serial: 'S1' }, gadget)).toEqual(invalidKey('Invalid key serial', { key: 'serial', path: 'serial', source: 'body' }));
  });

  it('an attribute with writable:false is rejected inside components, with the attribute path (no indices)', () => {
    expect(rejection({ parts: [{ label: 'a' }, { label: 'b', stamp: 'x' }] }, gadget)).toEqual(
      invalidKey('Invalid key stamp at parts.stamp', { key: 'stamp', path: 'parts.stamp', source: 'body' }),
    );
    expect(rejection({ panels: [{ __component: 'lab.part', label: 'a', stamp: 'x' }] }, gadget)).toEqual(
      invalidKey('Invalid key stamp at panels.stamp', { key: 'stamp', path: 'panels.stamp', source: 'body' }),
    );
  });

  it('non-writable keys anywhere are reported before an unknown key that comes first', () => {
    expect(rejection({ foo: 1, main: { label: 'x', stamp: 'y' } }, gadget).message).toBe('Invalid key stamp at main.stamp');
  });
});

describe('unknown keys', () => {
  it('an unknown root key is "Invalid key foo" with path null', () => {
    expect(rejection({ label: 'a', foo: 1 }, tag)).toEqual(invalidKey('Invalid key foo', { key: 'foo', path: null, source: 'body' }));
  });

  it('an unknown key in a component is "Invalid key bogus at seo" with path "seo"', () => {
    expect(rejection({ title: 't', seo: { metaTitle: 'm', bogus: 1 } })).toEqual(invalidKey('Invalid key bogus at seo', { key: 'bogus', path: 'seo', source: 'body' }));
  });

  it('__component names a dynamic-zone entry only: in a component it is an unknown key, as Strapi 5.54 answers', () => {
    expect(rejection({ title: 't', seo: { __component: 'shared.seo', metaTitle: 'm' } })).toEqual(
      invalidKey('Invalid key __component at seo', { key: '__component', path: 'seo', source: 'body' }),
    );
  });

  it('an unknown key in a nested component names the whole attribute path', () => {
    expect(rejection({ title: 't', seo: { metaTitle: 'm', openGraph: { ogTitle: 'o', nope: 1 } } }).message).toBe('Invalid key nope at seo.openGraph');
  });

  it('an unknown key in a repeatable component item names the attribute, not the index', () => {
    expect(
      rejection(
        {
          name: 'n',
          links: [
            { label: 'l', url: 'u' },
            { label: 'l', url: 'u', target: '_blank' },
          ],
        },
        author,
      ),
    ).toEqual(invalidKey('Invalid key target at links', { key: 'target', path: 'links', source: 'body' }));
  });

  it('an unknown key in a dynamic-zone entry is reported at the zone', () => {
    expect(rejection({ title: 't', blocks: [{ __component: 'shared.quote', title: 'q', colour: 'red' }] }).message).toBe('Invalid key colour at blocks');
  });

  it('createdAt inside a component is an unknown key of the component (components have no timestamps)', () => {
    expect(rejection({ title: 't', seo: { metaTitle: 'm', createdAt: 'x' } })).toEqual(
      invalidKey('Invalid key createdAt at seo', { key: 'createdAt', path: 'seo', source: 'body' }),
    );
  });

  it('publishedAt and locale are accepted at the root and dropped', () => {
    const d = check({ title: 't', publishedAt: '2020-01-01T00:00:00.000Z', locale: 'fr' });
    expect([...d.scalars.keys()]).toEqual(['title']);
  });

  it('publishedAt and locale inside a component are unknown keys', () => {
    expect(rejection({ title: 't', seo: { metaTitle: 'm', locale: 'fr' } }).message).toBe('Invalid key locale at seo');
  });

  it('__proto__ and constructor are unknown keys, not prototype lookups', () => {
    expect(rejection(JSON.parse('{"label":"a","__proto__":{"x":1}}'), tag).message).toBe('Invalid key __proto__');
    expect(rejection({ label: 'a', constructor: 1 }, tag).message).toBe('Invalid key constructor');
  });
});

describe('component ids and dynamic-zone keys are accepted at any depth (Strapi bug #25074 class)', () => {
  it('id in a single component, a repeatable item, a nested component and a zone entry', () => {
    const d = check({ title: 't', seo: { id: 4, metaTitle: 'm', openGraph: { id: 9, ogTitle: 'o' } }, blocks: [{ __component: 'shared.quote', id: 12, title: 'q' }] });
    const seo = d.components.get('seo');
    expect(seo).toMatchObject({ id: 4 });
    expect(seo && !Array.isArray(seo) ? seo.data.components.get('openGraph') : undefined).toMatchObject({ id: 9 });
    expect(d.zones.get('blocks')).toEqual([{ component: 'shared.quote', id: 12, data: expect.anything() }]);
    const links = check(
      {
        name: 'n',
        links: [
          { id: 1, label: 'l', url: 'u' },
          { label: 'k', url: 'v' },
        ],
      },
      author,
    ).components.get('links');
    expect(links).toEqual([{ id: 1, data: expect.anything() }, { data: expect.anything() }]);
  });

  it('documentId inside components is accepted and dropped', () => {
    const d = check({ title: 't', seo: { documentId: 'x', metaTitle: 'm' } });
    const seo = d.components.get('seo');
    expect(seo && !Array.isArray(seo) ? [...seo.data.scalars.keys()] : null).toEqual(['metaTitle']);
  });
});

describe('relation and media value keys', () => {
  it('an unknown operation key is "Invalid key foo at tags"', () => {
    expect(rejection({ title: 't', tags: { foo: [1] } })).toEqual(invalidKey('Invalid key foo at tags', { key: 'foo', path: 'tags', source: 'body' }));
  });

  it('an unknown key on a relation item is reported at the relation, in shorthand lists and under operations', () => {
    expect(rejection({ title: 't', tags: [{ documentId: 'a', label: 'x' }] }).message).toBe('Invalid key label at tags');
    expect(rejection({ title: 't', tags: { connect: [{ documentId: 'a', bogus: 1 }] } }).message).toBe('Invalid key bogus at tags');
    expect(rejection({ title: 't', author: { documentId: 'a', connect: ['b'] } }).message).toBe('Invalid key connect at author');
  });

  it('an unknown key under options is reported at the relation', () => {
    expect(rejection({ title: 't', tags: { connect: ['a'], options: { strict: true, loose: 1 } } }).message).toBe('Invalid key loose at tags');
  });

  it('relation keys are checked inside dynamic-zone entries too', () => {
    expect(rejection({ title: 't', blocks: [{ __component: 'shared.quote', person: { foo: ['x'] } }] }).message).toBe('Invalid key foo at blocks.person');
  });

  it('an unknown key on a media value without a file reference is reported at the media attribute', () => {
    expect(rejection({ title: 't', cover: { url: '/x.png' } }).message).toBe('Invalid key url at cover');
    expect(rejection({ title: 't', gallery: [{ name: 'x' }] }).message).toBe('Invalid key name at gallery');
  });

  it('a populated file object sent back is accepted as a reference to that file', () => {
    const out = check({ title: 't', cover: { id: 1, url: '/x.png', formats: null }, gallery: [{ id: 2, name: 'x' }, 3] });
    expect(out.media.get('cover')).toEqual([{ id: 1 }]);
    expect(out.media.get('gallery')).toEqual([{ id: 2 }, { id: 3 }]);
  });
});

describe('relations the caller cannot read', () => {
  const canReadTags = abilityOf('api::tag.tag.find');

  it('a relation to a type without find permission is "Invalid key <relation>"', () => {
    expect(rejection({ title: 't', author: 'doc' }, article, undefined, canReadTags)).toEqual(invalidKey('Invalid key author', { key: 'author', path: 'author', source: 'body' }));
  });

  it('holds for null values and for relations inside dynamic-zone entries', () => {
    expect(rejection({ title: 't', editor: null }, article, undefined, canReadTags).message).toBe('Invalid key editor');
    expect(rejection({ title: 't', blocks: [{ __component: 'shared.quote', person: 'p' }] }, article, undefined, canReadTags).message).toBe('Invalid key person at blocks.person');
  });

  it('a readable target passes', () => {
    expect(check({ title: 't', tags: ['a'] }, article, undefined, canReadTags).relations.get('tags')).toEqual({ kind: 'set', items: [{ documentId: 'a' }] });
  });

  it('unknown keys are reported before restricted relations', () => {
    expect(rejection({ author: 'x', foo: 1 }, article, undefined, canReadTags).message).toBe('Invalid key foo');
  });
});
