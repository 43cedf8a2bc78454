// §6.2 (publish part): the rules only published rows get, applied to a row's final values.
import { describe, expect, it } from 'vitest';
import { PARTIAL, validateForPublish } from '../../../src/documents/input/validate-publish.js';
import type { Component, ContentType } from '../../../src/schema/types.js';
import { article, author, blog, contentType, gadget, lab, modelOf, tag } from './helpers.js';

const nonDpCreate = { isCreate: true, draftAndPublish: false };
const nonDpUpdate = { isCreate: false, draftAndPublish: false };
const dpPublish = { isCreate: false, draftAndPublish: true };

const errors = (schema: ContentType | Component, values: Record<string, unknown>, opts = nonDpCreate) => validateForPublish(modelOf(schema), schema, values, opts);
const messages = (schema: ContentType | Component, values: Record<string, unknown>, opts = nonDpCreate) => errors(schema, values, opts).map((e) => e.message);

/** Gadget values that pass every rule, to vary one at a time. */
const goodGadget = (): Record<string, unknown> => ({
  name: 'gizmo',
  settings: {},
  releasedOn: '2025-01-01',
  active: true,
  main: { label: 'm' },
  parts: [{ label: 'p' }],
  panels: [{ __component: 'lab.part', label: 'x' }],
});

describe('required', () => {
  it('missing on a non-D&P create: "name must be defined." without a value', () => {
    expect(errors(author, {})).toEqual([{ path: ['name'], message: 'name must be defined.', name: 'ValidationError' }]);
    expect(errors(author, {})[0]).not.toHaveProperty('value');
  });

  it('missing on a non-D&P update keeps the stored value: no error', () => {
    expect(errors(author, {}, nonDpUpdate)).toEqual([]);
  });

  it("null on a non-D&P write: yup's type error on null, with value null, as Strapi 5.54 answers", () => {
    expect(errors(author, { name: null }, nonDpUpdate)).toEqual([
      { path: ['name'], message: 'name must be a `string` type, but the final value was: `null`.', name: 'ValidationError', value: null },
    ]);
    expect(messages(author, { name: null })).toEqual(['name must be a `string` type, but the final value was: `null`.']);
  });

  it('null or missing when publishing a D&P row: a type error on null, with value null', () => {
    const expected = [{ path: ['title'], message: 'title must be a `string` type, but the final value was: `null`.', name: 'ValidationError', value: null }];
    expect(errors(article, { title: null }, dpPublish)).toEqual(expected);
    expect(errors(article, {}, dpPublish)).toEqual(expected);
    expect(errors(article, {}, { isCreate: true, draftAndPublish: true })).toEqual(expected);
  });

  it('the D&P message follows the attribute type as Strapi 5.54 words it (numbers NaN; json, dates and booleans "must be defined.")', () => {
    expect(messages(gadget, { ...goodGadget(), name: null, settings: null, releasedOn: null, active: null, main: null }, dpPublish)).toEqual([
      'name must be a `string` type, but the final value was: `null`.',
      'settings must be defined.',
      'releasedOn must be defined.',
      'active must be defined.',
      'main must be a `object` type, but the final value was: `null`.',
    ]);
    const labAuthor = contentType(lab, 'api::author.author');
    expect(messages(labAuthor, { name: 'n', rank: null, facts: {} }, dpPublish)).toEqual(['rank must be a `number` type, but the final value was: `NaN`.']);
  });

  it('false, 0 and "" satisfy required', () => {
    expect(errors(gadget, { ...goodGadget(), active: false })).toEqual([]);
    expect(messages(author, { name: '' })).toEqual([]);
  });

  it('a required single component missing on create', () => {
    const { main: _main, ...rest } = goodGadget();
    void _main;
    expect(errors(gadget, rest)).toEqual([{ path: ['main'], message: 'main must be defined.', name: 'ValidationError' }]);
  });
});

describe('components', () => {
  it('a missing required sub-field of a repeatable item: links[0].url must be defined.', () => {
    expect(errors(author, { name: 'n', links: [{ label: 'a' }] })).toEqual([{ path: ['links', '0', 'url'], message: 'links[0].url must be defined.', name: 'ValidationError' }]);
  });

  it('a null required sub-field: the type error on null', () => {
    expect(
      errors(author, {
        name: 'n',
        links: [
          { label: 'a', url: 'u' },
          { label: 'b', url: null },
        ],
      }),
    ).toEqual([{ path: ['links', '1', 'url'], message: 'links[1].url must be a `string` type, but the final value was: `null`.', name: 'ValidationError', value: null }]);
  });

  it('sub-fields are "must be defined." on non-D&P updates, and a type error on null in D&P types (as Strapi 5.54 reports a publish)', () => {
    expect(errors(article, { title: 't', seo: {} }, dpPublish)).toEqual([
      { path: ['seo', 'metaTitle'], message: 'seo.metaTitle must be a `string` type, but the final value was: `null`.', name: 'ValidationError', value: null },
    ]);
    expect(messages(author, { links: [{ label: 'a' }] }, nonDpUpdate)).toEqual(['links[0].url must be defined.']);
  });

  it('nested components, and dynamic-zone entries, are validated with their paths', () => {
    expect(errors(gadget, { ...goodGadget(), main: { label: 'm', inner: { count: 1 } }, panels: [{ __component: 'lab.part' }] })).toEqual([
      { path: ['main', 'inner', 'note'], message: 'main.inner.note must be defined.', name: 'ValidationError' },
      { path: ['panels', '0', 'label'], message: 'panels[0].label must be defined.', name: 'ValidationError' },
    ]);
  });

  it('a component updated in place (marked partial) keeps its stored sub-fields: absent is no error, null still is', () => {
    expect(errors(author, { name: 'n', links: [{ [PARTIAL]: true, label: 'new label' }] })).toEqual([]);
    expect(messages(author, { name: 'n', links: [{ [PARTIAL]: true, url: null }] })).toEqual(['links[0].url must be a `string` type, but the final value was: `null`.']);
  });

  it('repeatable component item counts: min and max; an optional list may be empty whatever its minimum, as in Strapi', () => {
    expect(errors(gadget, { ...goodGadget(), parts: [] })).toEqual([]);
    const three = [{ label: 'a' }, { label: 'b' }, { label: 'c' }];
    expect(errors(gadget, { ...goodGadget(), parts: three })).toEqual([
      { path: ['parts'], message: 'parts field must have less than or equal to 2 items', name: 'ValidationError', value: three },
    ]);
  });

  it('dynamic-zone entry counts: min and max; a required zone may not be empty', () => {
    expect(messages(gadget, { ...goodGadget(), panels: [] })).toEqual(['panels field must have at least 1 items']);
    const entry = { __component: 'lab.part', label: 'x' };
    expect(messages(gadget, { ...goodGadget(), panels: [entry, entry, entry] })).toEqual(['panels field must have less than or equal to 2 items']);
  });
});

describe('formats and minima', () => {
  it('minLength: username must be at least 3 characters', () => {
    const user = contentType(blog, 'plugin::users-permissions.user');
    expect(errors(user, { username: 'ab', email: 'ab@cd.ef' })).toEqual([
      { path: ['username'], message: 'username must be at least 3 characters', name: 'ValidationError', value: 'ab' },
    ]);
  });

  it('min: views must be greater than or equal to 0', () => {
    expect(errors(article, { title: 't', views: -1 }, dpPublish)).toEqual([
      { path: ['views'], message: 'views must be greater than or equal to 0', name: 'ValidationError', value: -1 },
    ]);
    expect(messages(article, { title: 't', views: 0 }, dpPublish)).toEqual([]);
  });

  it('min on decimal and on biginteger strings', () => {
    expect(messages(gadget, { ...goodGadget(), price: -0.5, big: '-1' })).toEqual(['price must be greater than or equal to 0', 'big must be greater than or equal to 0']);
    expect(messages(gadget, { ...goodGadget(), price: 0, big: '0' })).toEqual([]);
  });

  it('regex: color must match the following: "/^#[0-9a-fA-F]{6}$/"; "" passes on a field that is not required', () => {
    expect(errors(tag, { label: 'l', color: 'red' }, dpPublish)).toEqual([
      { path: ['color'], message: 'color must match the following: "/^#[0-9a-fA-F]{6}$/"', name: 'ValidationError', value: 'red' },
    ]);
    expect(messages(tag, { label: 'l', color: '#A0b1C2' }, dpPublish)).toEqual([]);
    expect(messages(tag, { label: 'l', color: '' }, dpPublish)).toEqual([]);
  });

  it('a pattern holding slashes is named as a regex literal names it, the slashes escaped (as Strapi 5.54, seen in strapi-grupobd)', () => {
    const withSlashes = { ...tag, attributes: new Map([...tag.attributes].map(([k, a]) => [k, k === 'color' ? { ...a, regex: '/^[a-z]+/[0-9]+$/' } : a])) } as ContentType;
    expect(messages(withSlashes, { label: 'l', color: 'red' }, dpPublish)).toEqual(['color must match the following: "/\\/^[a-z]+\\/[0-9]+$\\//"']);
  });

  it('uid default format: slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', () => {
    expect(errors(article, { title: 't', slug: 'has space' }, dpPublish)).toEqual([
      { path: ['slug'], message: 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', name: 'ValidationError', value: 'has space' },
    ]);
    expect(messages(article, { title: 't', slug: 'ok-slug_1.2~' }, dpPublish)).toEqual([]);
  });

  it('a uid with its own regex is checked against that regex instead', () => {
    expect(messages(gadget, { ...goodGadget(), sku: 'ab' })).toEqual(['sku must match the following: "/^[A-Z]{3}$/"']);
    expect(messages(gadget, { ...goodGadget(), sku: 'ABC' })).toEqual([]);
  });

  it('email: the grammar of yup 0.32 that Strapi 5.54 checks with, and "" cannot be empty', () => {
    expect(errors(article, { title: 't', contactEmail: 'nope' }, dpPublish)).toEqual([
      { path: ['contactEmail'], message: 'contactEmail must be a valid email', name: 'ValidationError', value: 'nope' },
    ]);
    expect(errors(article, { title: 't', contactEmail: '' }, dpPublish)).toEqual([
      { path: ['contactEmail'], message: 'contactEmail cannot be empty', name: 'ValidationError', value: '' },
    ]);
    // refused by the reference, though a browser's grammar takes them: no dot in the domain, a last label ending in a digit
    for (const bad of ['a@b', 'x@localhost', 'a@b.c1', 'a@b.co-', 'a..b@c.de', 'a b@c.de']) {
      expect(messages(article, { title: 't', contactEmail: bad }, dpPublish), bad).toEqual(['contactEmail must be a valid email']);
    }
    for (const good of ['desk+1@example.test', 'a@b.c', 'A@B.CO', '"a b"@c.de', 'a@b_c.d~e', 'é@é.é']) {
      expect(messages(article, { title: 't', contactEmail: good }, dpPublish), good).toEqual([]);
    }
  });

  it('rules apply inside components with their paths', () => {
    expect(messages(author, { name: 'n', links: [{ label: 'a', url: 'u' }] })).toEqual([]);
    expect(errors(gadget, { ...goodGadget(), main: { label: 'm', inner: { note: 'n', count: 2 } } })).toEqual([]);
  });

  it('every error is returned, in schema order', () => {
    expect(errors(article, { title: null, slug: 'a b', views: -3, contactEmail: 'x' }, dpPublish).map((e) => e.path.join('.'))).toEqual(['title', 'slug', 'views', 'contactEmail']);
  });

  it('unique is not checked here (the caller asks the database)', () => {
    expect(errors(author, { name: 'Same' })).toEqual([]);
  });
});
