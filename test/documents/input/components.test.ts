// §6.4: component and dynamic-zone values, normalised recursively; zone entries never a silent no-op.
import { describe, expect, it } from 'vitest';
import { article, author, check, gadget, homepage, rejection } from './helpers.js';
import type { ComponentInput } from '../../../src/documents/input/types.js';

const errorsOf = (data: Record<string, unknown>, schema = article) => {
  const r = rejection(data, schema);
  return { message: r.message, errors: (r.details as { errors: unknown[] }).errors };
};
const single = (v: ComponentInput | ComponentInput[] | null | undefined): ComponentInput => {
  if (!v || Array.isArray(v)) throw new Error('expected a single component');
  return v;
};

describe('single components', () => {
  it('an object is checked with the component schema and normalised, nested components too', () => {
    const seo = single(check({ seo: { metaTitle: 'm', keywords: 'k', shareImage: 3, openGraph: { ogTitle: 'o', ogImage: 'imgDoc' } } }).components.get('seo'));
    expect(Object.fromEntries(seo.data.scalars)).toEqual({ metaTitle: 'm', keywords: 'k' });
    expect(seo.data.media.get('shareImage')).toEqual([{ id: 3 }]);
    const og = single(seo.data.components.get('openGraph'));
    expect(Object.fromEntries(og.data.scalars)).toEqual({ ogTitle: 'o' });
    expect(og.data.media.get('ogImage')).toEqual([{ documentId: 'imgDoc' }]);
    expect(seo.id).toBeUndefined();
  });

  it('the id of a component is kept (update in place), at any depth', () => {
    const seo = single(check({ seo: { id: 3, metaTitle: 'm', openGraph: { id: '8', ogTitle: 'o' } } }).components.get('seo'));
    expect(seo.id).toBe(3);
    expect(single(seo.data.components.get('openGraph')).id).toBe(8);
  });

  it('null clears; id: null names no component (the writer answers "not related" on an update)', () => {
    expect(check({ seo: null }).components.get('seo')).toBeNull();
    expect(single(check({ seo: { id: null, metaTitle: 'm' } }).components.get('seo')).id).toBe(0);
    expect(single(check({ seo: { metaTitle: 'm' } }).components.get('seo')).id).toBeUndefined();
  });

  it('a non-object is a type error', () => {
    expect(errorsOf({ seo: 'x' }).errors).toEqual([
      { path: ['seo'], message: 'seo must be a `object` type, but the final value was: `"x"`.', name: 'ValidationError', value: 'x' },
    ]);
    expect(errorsOf({ seo: [{ metaTitle: 'm' }] }).errors).toMatchObject([
      { path: ['seo'], message: 'seo must be a `object` type, but the final value was: `[\n  {\n    "metaTitle": "\\"m\\""\n  }\n]`.' },
    ]);
  });

  it('an id is not type-checked, as Strapi 5.54 gives it no type: digits name that row, anything else none', () => {
    for (const [given, id] of [
      ['abc', 0],
      [1.5, 0],
      [-3, 0],
      [true, 0],
      [{}, 0],
      ['7', 7],
      [7, 7],
    ] as const) {
      expect(single(check({ seo: { id: given, metaTitle: 'm' } }).components.get('seo')).id, JSON.stringify(given)).toBe(id);
    }
  });

  it('sub-field errors carry the nested path', () => {
    expect(errorsOf({ seo: { metaTitle: 'm', openGraph: { ogTitle: 5 } } }).errors).toEqual([
      {
        path: ['seo', 'openGraph', 'ogTitle'],
        message: 'seo.openGraph.ogTitle must be a `string` type, but the final value was: `5`.',
        name: 'ValidationError',
        value: 5,
      },
    ]);
  });
});

describe('repeatable components', () => {
  it('an array becomes a list of component inputs, ids kept', () => {
    const links = check(
      {
        links: [
          { label: 'a', url: 'u', newTab: 'true' },
          { id: 4, label: 'b', url: 'v' },
        ],
      },
      author,
    ).components.get('links');
    expect(Array.isArray(links) && links.map((l) => ({ id: l.id, scalars: Object.fromEntries(l.data.scalars) }))).toEqual([
      { id: undefined, scalars: { label: 'a', url: 'u', newTab: true } },
      { id: 4, scalars: { label: 'b', url: 'v' } },
    ]);
  });

  it('null clears and [] empties', () => {
    expect(check({ links: null }, author).components.get('links')).toBeNull();
    expect(check({ links: [] }, author).components.get('links')).toEqual([]);
  });

  it('a non-array, and a non-object item (cast to null, as Strapi 5.54 reports it), are type errors with index paths', () => {
    expect(errorsOf({ links: { label: 'a' } }, author).errors).toMatchObject([
      { path: ['links'], message: 'links must be a `array` type, but the final value was: `{\n  "label": "\\"a\\""\n}`.' },
    ]);
    expect(errorsOf({ links: [{ label: 'a', url: 'u' }, 'x'] }, author).errors).toEqual([
      { path: ['links', '1'], message: 'links[1] must be a `object` type, but the final value was: `null` (cast from the value `"x"`).', name: 'ValidationError', value: null },
    ]);
  });

  it('sub-field errors use string indices in paths and brackets in messages', () => {
    expect(
      errorsOf(
        {
          links: [
            { label: 'a', url: 'u' },
            { label: 'b', url: 7 },
          ],
        },
        author,
      ).errors,
    ).toEqual([
      {
        path: ['links', '1', 'url'],
        message: 'links[1].url must be a `string` type, but the final value was: `7`.',
        name: 'ValidationError',
        value: 7,
      },
    ]);
  });

  it('nested components inside repeatable items', () => {
    const r = errorsOf({ parts: [{ label: 'a', inner: { note: 'n', count: 'x' } }] }, gadget);
    expect(r.errors).toMatchObject([
      { path: ['parts', '0', 'inner', 'count'], message: 'parts[0].inner.count must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).' },
    ]);
  });
});

describe('dynamic zones', () => {
  it('entries are normalised with their component uid and id', () => {
    const zone = check({
      blocks: [
        { __component: 'shared.rich-text', body: 'b' },
        { __component: 'shared.quote', id: 5, title: 'q', person: 'p' },
      ],
    }).zones.get('blocks');
    expect(zone?.map((e) => ({ component: e.component, id: e.id, scalars: Object.fromEntries(e.data.scalars) }))).toEqual([
      { component: 'shared.rich-text', id: undefined, scalars: { body: 'b' } },
      { component: 'shared.quote', id: 5, scalars: { title: 'q' } },
    ]);
  });

  it('null clears and [] empties', () => {
    expect(check({ blocks: null }).zones.get('blocks')).toBeNull();
    expect(check({ blocks: [] }).zones.get('blocks')).toEqual([]);
  });

  it('a dynamic-zone entry without __component is a 400 naming blocks[0].__component, then the root error Strapi adds', () => {
    const entry = { body: 'no type' };
    const r = errorsOf({ blocks: [entry] });
    expect(r.message).toBe('2 errors occurred');
    expect(r.errors).toEqual([
      { path: ['blocks', '0', '__component'], message: 'blocks[0].__component is a required field', name: 'ValidationError' },
      {
        path: [],
        message: 'Cannot build relations store from dynamiczone, component identifier is undefined',
        name: 'ValidationError',
        value: { blocks: [entry], publishedAt: null },
      },
    ]);
  });

  it("a null __component is yup's type error and its one-of error, then the root error of a missing one (Strapi 5.54)", () => {
    const entry = { __component: null, body: 'x' };
    const r = errorsOf({ blocks: [entry] });
    expect(r.message).toBe('3 errors occurred');
    expect(r.errors).toEqual([
      {
        path: ['blocks', '0', '__component'],
        message: 'blocks[0].__component must be a `string` type, but the final value was: `null`.',
        name: 'ValidationError',
        value: null,
      },
      {
        path: ['blocks', '0', '__component'],
        message: 'blocks[0].__component must be one of the following values: shared.rich-text, shared.quote, shared.media, shared.slider',
        name: 'ValidationError',
        value: null,
      },
      {
        path: [],
        message: 'Cannot build relations store from dynamiczone, component identifier is undefined',
        name: 'ValidationError',
        value: { blocks: [entry], publishedAt: null },
      },
    ]);
  });

  it("an empty __component is yup's one-of error, as the reference Strapi 5.54 answers it, with the root error of a missing one", () => {
    const entry = { __component: '', body: 'x' };
    expect(errorsOf({ blocks: [entry] }).errors).toEqual([
      {
        path: ['blocks', '0', '__component'],
        message: 'blocks[0].__component must be one of the following values: shared.rich-text, shared.quote, shared.media, shared.slider',
        name: 'ValidationError',
        value: '',
      },
      {
        path: [],
        message: 'Cannot build relations store from dynamiczone, component identifier is undefined',
        name: 'ValidationError',
        value: { blocks: [entry], publishedAt: null },
      },
    ]);
  });

  it('an unknown __component is a 400 listing the components the zone lists, in schema order', () => {
    const listed = 'shared.rich-text, shared.quote, shared.media, shared.slider';
    const data = {
      blocks: [
        { __component: 'shared.rich-text', body: 'ok' },
        { __component: 'shared.nope', body: 'x' },
      ],
    };
    const r = errorsOf(data);
    expect(r.errors).toEqual([
      { path: ['blocks', '1', '__component'], message: `blocks[1].__component must be one of the following values: ${listed}`, name: 'ValidationError', value: 'shared.nope' },
      { path: [], message: 'Invalid relations', name: 'ValidationError', value: { ...data, publishedAt: null } },
    ]);
    // a number is cast to its text, as yup does
    expect(errorsOf({ blocks: [{ __component: 7 }] }).errors).toMatchObject([
      { message: `blocks[0].__component must be one of the following values: ${listed}`, value: '7' },
      { message: 'Invalid relations', value: { blocks: [{ __component: '7' }] } },
    ]);
  });

  it("a registered component outside the zone's own list is refused like an unknown one", () => {
    const data = { hero: [{ __component: 'shared.slider', files: [1] }] };
    expect(errorsOf(data, homepage).errors).toEqual([
      {
        path: ['hero', '0', '__component'],
        message: 'hero[0].__component must be one of the following values: shared.rich-text, shared.media, shared.quote',
        name: 'ValidationError',
        value: 'shared.slider',
      },
      { path: [], message: 'Invalid relations', name: 'ValidationError', value: { ...data, publishedAt: null } },
    ]);
  });

  it('a non-array zone and a non-object entry are type errors', () => {
    expect(errorsOf({ blocks: { __component: 'shared.quote' } }).errors).toMatchObject([
      { path: ['blocks'], message: 'blocks must be a `array` type, but the final value was: `{\n  "__component": "\\"shared.quote\\""\n}`.' },
    ]);
    // anything else that is no list also gets Strapi's root error: its relation step finds no component identifier
    expect(errorsOf({ hero: 'x' }, homepage).errors).toEqual([
      { path: ['hero'], message: 'hero must be a `array` type, but the final value was: `"x"`.', name: 'ValidationError', value: 'x' },
      { path: [], message: 'Cannot build relations store from dynamiczone, component identifier is undefined', name: 'ValidationError', value: { hero: 'x', publishedAt: null } },
    ]);
    expect(errorsOf({ blocks: 0 }).errors.map((e) => (e as { message: string }).message)).toEqual([
      'blocks must be a `array` type, but the final value was: `0`.',
      'Cannot build relations store from dynamiczone, component identifier is undefined',
    ]);
    expect(errorsOf({ blocks: ['x'] }).errors).toEqual([
      { path: ['blocks', '0'], message: 'blocks[0] must be a `object` type, but the final value was: `null` (cast from the value `"x"`).', name: 'ValidationError', value: null },
      { path: [], message: 'Invalid relations', name: 'ValidationError', value: { blocks: [null], publishedAt: null } },
    ]);
  });

  it('entry sub-field errors carry the entry path', () => {
    expect(errorsOf({ blocks: [{ __component: 'shared.quote', title: 'x'.repeat(256) }] }).errors).toMatchObject([
      { path: ['blocks', '0', 'title'], message: 'blocks[0].title must be at most 255 characters' },
    ]);
  });

  it('several bad entries are reported together, with one root error named by the first', () => {
    const r = errorsOf({ blocks: [{ body: 'a' }, { __component: 'x.y' }] });
    expect(r.message).toBe('3 errors occurred');
    expect(r.errors.map((e) => (e as { path: string[] }).path)).toEqual([['blocks', '0', '__component'], ['blocks', '1', '__component'], []]);
    expect((r.errors[2] as { message: string }).message).toBe('Cannot build relations store from dynamiczone, component identifier is undefined');
  });
});
