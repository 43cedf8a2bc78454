// §6.2 (draft-level part): every scalar type's casts and failures, with Strapi's exact wording.
import { describe, expect, it } from 'vitest';
import type { ContentType } from '../../../src/schema/types.js';
import { article, author, check, gadget, rejection } from './helpers.js';

const scalarOf = (data: Record<string, unknown>, name: string): unknown => check(data).scalars.get(name);
const gadgetScalar = (data: Record<string, unknown>, name: string): unknown => check(data, gadget).scalars.get(name);

/** The single field error a body produces, with the top-level message checked to equal it. */
function onlyFieldError(data: Record<string, unknown>, schema: ContentType = article) {
  const r = rejection(data, schema);
  const errors = (r.details as { errors: unknown[] }).errors;
  expect(errors).toHaveLength(1);
  expect(r.message).toBe((errors[0] as { message: string }).message);
  return errors[0];
}

/** A plain ValidationError without details.errors (a conversion error). */
function plain(data: Record<string, unknown>, schema: ContentType = article) {
  const r = rejection(data, schema);
  expect(r.details).toEqual({});
  return r.message;
}

describe('string types', () => {
  it('a number for a text field is a type error showing the value', () => {
    expect(onlyFieldError({ summary: 123 })).toEqual({
      path: ['summary'],
      message: 'summary must be a `string` type, but the final value was: `123`.',
      name: 'ValidationError',
      value: 123,
    });
  });

  it('objects and arrays are printed as yup prints them', () => {
    expect(onlyFieldError({ summary: { a: 1, b: 'x' } })).toMatchObject({
      message: 'summary must be a `string` type, but the final value was: `{\n  "a": "1",\n  "b": "\\"x\\""\n}`.',
    });
    expect(onlyFieldError({ summary: true })).toMatchObject({ message: 'summary must be a `string` type, but the final value was: `true`.' });
  });

  it('string, text, richtext, email, password and uid are kept as given', () => {
    const d = check({ title: 'T', summary: 's', legacyBody: '# md', contactEmail: 'a@b.c', slug: 'a-b' });
    expect(Object.fromEntries(d.scalars)).toEqual({ title: 'T', summary: 's', legacyBody: '# md', contactEmail: 'a@b.c', slug: 'a-b' });
    expect(gadgetScalar({ secret: 'hunter22' }, 'secret')).toBe('hunter22');
    expect(onlyFieldError({ secret: 5 }, gadget)).toMatchObject({ message: 'secret must be a `string` type, but the final value was: `5`.' });
  });

  it('maxLength from the schema: title must be at most 200 characters', () => {
    expect(onlyFieldError({ title: 'x'.repeat(201) })).toEqual({
      path: ['title'],
      message: 'title must be at most 200 characters',
      name: 'ValidationError',
      value: 'x'.repeat(201),
    });
    expect(scalarOf({ title: 'x'.repeat(200) }, 'title')).toHaveLength(200);
  });

  it('a string attribute without maxLength is limited to 255; text is not', () => {
    expect(onlyFieldError({ name: 'x'.repeat(256) }, author)).toMatchObject({ path: ['name'], message: 'name must be at most 255 characters' });
    expect(scalarOf({ summary: 'x'.repeat(5000) }, 'summary')).toHaveLength(5000);
  });

  it('maxLength applies inside components with the yup path', () => {
    expect(onlyFieldError({ seo: { metaTitle: 'x'.repeat(71) } })).toMatchObject({ path: ['seo', 'metaTitle'], message: 'seo.metaTitle must be at most 70 characters' });
  });

  it('null clears a string field', () => {
    expect(check({ summary: null }).scalars.get('summary')).toBeNull();
  });
});

describe('enumeration', () => {
  it('a value outside the enum lists the values with a trailing ", " (null is in the list)', () => {
    expect(onlyFieldError({ kind: 'rant' })).toEqual({
      path: ['kind'],
      message: 'kind must be one of the following values: news, tutorial, opinion, ',
      name: 'ValidationError',
      value: 'rant',
    });
  });

  it('a listed value and null pass', () => {
    expect(scalarOf({ kind: 'tutorial' }, 'kind')).toBe('tutorial');
    expect(scalarOf({ kind: null }, 'kind')).toBeNull();
  });

  it('a number or boolean is read as its text, as yup casts it for Strapi 5.54 (no type error): then checked against the list', () => {
    const oneOf = 'kind must be one of the following values: news, tutorial, opinion, ';
    expect(onlyFieldError({ kind: 1 })).toEqual({ path: ['kind'], message: oneOf, name: 'ValidationError', value: '1' });
    expect(onlyFieldError({ kind: true })).toEqual({ path: ['kind'], message: oneOf, name: 'ValidationError', value: 'true' });
  });

  it('a list or an object breaks both the type and the list, two errors on the one path as Strapi 5.54 gives them', () => {
    const r = rejection({ kind: ['news'] });
    expect(r.message).toBe('2 errors occurred');
    expect(r.details).toEqual({
      errors: [
        { path: ['kind'], message: 'kind must be a `string` type, but the final value was: `[\n  "\\"news\\""\n]`.', name: 'ValidationError', value: ['news'] },
        { path: ['kind'], message: 'kind must be one of the following values: news, tutorial, opinion, ', name: 'ValidationError', value: ['news'] },
      ],
    });
  });
});

describe('integer', () => {
  it('numeric strings are cast', () => {
    expect(scalarOf({ views: '12' }, 'views')).toBe(12);
    expect(scalarOf({ views: ' 7 ' }, 'views')).toBe(7);
    expect(scalarOf({ views: 3 }, 'views')).toBe(3);
  });

  it('a fraction is "views must be an integer"', () => {
    expect(onlyFieldError({ views: 1.5 })).toEqual({ path: ['views'], message: 'views must be an integer', name: 'ValidationError', value: 1.5 });
    expect(onlyFieldError({ views: '2.5' })).toMatchObject({ message: 'views must be an integer', value: 2.5 });
  });

  it('a non-numeric string is the NaN type error with value null', () => {
    expect(onlyFieldError({ views: 'abc' })).toEqual({
      path: ['views'],
      message: 'views must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).',
      name: 'ValidationError',
      value: null,
    });
  });

  it('booleans, empty strings and objects are not numbers', () => {
    expect(onlyFieldError({ views: true })).toMatchObject({ message: 'views must be a `number` type, but the final value was: `NaN` (cast from the value `true`).', value: null });
    expect(onlyFieldError({ views: '' })).toMatchObject({ message: 'views must be a `number` type, but the final value was: `NaN` (cast from the value `""`).' });
    expect(onlyFieldError({ views: [1] })).toMatchObject({ message: 'views must be a `number` type, but the final value was: `NaN` (cast from the value `[\n  "1"\n]`).' });
  });

  it('max: "<f> must be less than or equal to <n>"; min waits for publish', () => {
    expect(onlyFieldError({ level: 11 }, gadget)).toEqual({ path: ['level'], message: 'level must be less than or equal to 10', name: 'ValidationError', value: 11 });
    expect(gadgetScalar({ level: 0 }, 'level')).toBe(0);
    expect(scalarOf({ views: -1 }, 'views')).toBe(-1);
  });

  it('a fraction above max reports both rules', () => {
    const r = rejection({ level: 10.5 }, gadget);
    expect(r.message).toBe('2 errors occurred');
    expect((r.details as { errors: { message: string }[] }).errors.map((e) => e.message)).toEqual(['level must be an integer', 'level must be less than or equal to 10']);
  });
});

describe('float and decimal', () => {
  it('cast numeric strings and keep fractions', () => {
    expect(scalarOf({ score: '1.25' }, 'score')).toBe(1.25);
    expect(scalarOf({ rating: 4.5 }, 'rating')).toBe(4.5);
    expect(gadgetScalar({ price: '999.99' }, 'price')).toBe(999.99);
  });

  it('not finite: "<f> must be a finite number"', () => {
    expect(onlyFieldError({ score: '1e999' })).toEqual({ path: ['score'], message: 'score must be a finite number', name: 'ValidationError', value: Infinity });
  });

  it('max on float and decimal', () => {
    expect(onlyFieldError({ ratio: 1.6 }, gadget)).toMatchObject({ message: 'ratio must be less than or equal to 1.5' });
    expect(onlyFieldError({ price: 1000.5 }, gadget)).toMatchObject({ message: 'price must be less than or equal to 1000' });
  });

  it('non-numeric is the NaN type error', () => {
    expect(onlyFieldError({ rating: 'high' })).toMatchObject({
      message: 'rating must be a `number` type, but the final value was: `NaN` (cast from the value `"high"`).',
      value: null,
    });
  });
});

describe('biginteger', () => {
  it('is stored as a string of digits, from a digit string or a safe integer', () => {
    expect(scalarOf({ wordCount: '9007199254740993' }, 'wordCount')).toBe('9007199254740993');
    expect(scalarOf({ wordCount: 42 }, 'wordCount')).toBe('42');
    expect(scalarOf({ wordCount: '-0012' }, 'wordCount')).toBe('-12');
  });

  it('anything else: "<f> must be a valid integer"', () => {
    for (const v of ['12.5', 'abc', '', 1.5, true, {}]) {
      expect(onlyFieldError({ wordCount: v })).toEqual({ path: ['wordCount'], message: 'wordCount must be a valid integer', name: 'ValidationError', value: v });
    }
  });

  it('max compares as big integers', () => {
    expect(onlyFieldError({ big: '5001' }, gadget)).toMatchObject({ message: 'big must be less than or equal to 5000', value: '5001' });
    expect(gadgetScalar({ big: '5000' }, 'big')).toBe('5000');
  });
});

describe('boolean', () => {
  it('accepts true/false and yup\'s casts "true"/"false"/"1"/"0"/1/0', () => {
    expect(scalarOf({ isFeatured: false }, 'isFeatured')).toBe(false);
    for (const v of ['true', 'TRUE', '1', 1]) expect(scalarOf({ isFeatured: v }, 'isFeatured')).toBe(true);
    for (const v of ['false', 'False', '0', 0]) expect(scalarOf({ isFeatured: v }, 'isFeatured')).toBe(false);
  });

  it('"yes" is a type error showing the quoted string', () => {
    expect(onlyFieldError({ isFeatured: 'yes' })).toEqual({
      path: ['isFeatured'],
      message: 'isFeatured must be a `boolean` type, but the final value was: `"yes"`.',
      name: 'ValidationError',
      value: 'yes',
    });
    expect(onlyFieldError({ isFeatured: 2 })).toMatchObject({ message: 'isFeatured must be a `boolean` type, but the final value was: `2`.' });
  });
});

describe('date', () => {
  it('is stored as yyyy-MM-dd; the date part of an ISO datetime is taken', () => {
    expect(scalarOf({ publishDate: '2025-03-07' }, 'publishDate')).toBe('2025-03-07');
    expect(scalarOf({ publishDate: '2025-03-07T22:10:00.000Z' }, 'publishDate')).toBe('2025-03-07');
    expect(scalarOf({ publishDate: '2024-02-29' }, 'publishDate')).toBe('2024-02-29');
  });

  it('a bad format is a plain "Invalid format, expected yyyy-MM-dd" with details {}', () => {
    for (const v of ['2025-13-45', '07/03/2025', 'today', '2025-3-7', 20250307, true]) expect(plain({ publishDate: v })).toBe('Invalid format, expected yyyy-MM-dd');
  });

  it('an impossible day is "Invalid date"', () => {
    expect(plain({ publishDate: '2025-02-29' })).toBe('Invalid date');
    expect(plain({ publishDate: '2025-02-29x' })).toBe('Invalid date');
  });

  it('whatever follows a yyyy-MM-dd start is dropped, as Strapi 5.54 stores it; a start that is no date is refused', () => {
    for (const v of ['2024-01-01 ', '2024-01-01x', '2024-01-01abc', '2024-01-01 10:00', '2024-01-01\n', '2024-01-01T'])
      expect(scalarOf({ publishDate: v }, 'publishDate'), v).toBe('2024-01-01');
    for (const v of [' 2024-01-01', '2024-1-1x', '2024-13-01x', '2024-01-32', '99999-01-01']) expect(plain({ publishDate: v }), v).toBe('Invalid format, expected yyyy-MM-dd');
  });
});

describe('time', () => {
  it('is stored as HH:mm:ss.SSS from HH:mm:ss or HH:mm:ss.S…', () => {
    expect(scalarOf({ publishTime: '09:05:00' }, 'publishTime')).toBe('09:05:00.000');
    expect(scalarOf({ publishTime: '23:59:59.5' }, 'publishTime')).toBe('23:59:59.500');
    expect(scalarOf({ publishTime: '00:00:01.123' }, 'publishTime')).toBe('00:00:01.123');
  });

  it('a bad time, and HH:mm without seconds (as in Strapi), is "Invalid time format, expected HH:mm:ss.SSS"', () => {
    for (const v of ['25:99', '24:00:00', '12:60:00', '9:05:00', '12:30', '12:30:00.1234', 'noon']) {
      expect(plain({ publishTime: v }), v).toBe('Invalid time format, expected HH:mm:ss.SSS');
    }
  });

  it('a non-string is Strapi\'s "Expected a string, got a <type>"', () => {
    expect(plain({ publishTime: 930 })).toBe('Expected a string, got a number');
  });
});

describe('datetime and timestamp', () => {
  it('ISO strings become Dates; without an offset they are UTC', () => {
    expect(scalarOf({ eventAt: '2025-03-07T10:20:30.456Z' }, 'eventAt')).toEqual(new Date('2025-03-07T10:20:30.456Z'));
    expect(scalarOf({ eventAt: '2025-03-07T10:20:30+02:00' }, 'eventAt')).toEqual(new Date('2025-03-07T08:20:30Z'));
    expect(scalarOf({ eventAt: '2025-03-07T10:20' }, 'eventAt')).toEqual(new Date('2025-03-07T10:20:00Z'));
    expect(scalarOf({ eventAt: '2025-03-07' }, 'eventAt')).toEqual(new Date('2025-03-07T00:00:00Z'));
    expect(scalarOf({ eventAt: '2025-03-07 10:20:30' }, 'eventAt')).toEqual(new Date('2025-03-07T10:20:30Z'));
  });

  it("the other ISO forms Strapi 5.54 reads (date-fns' parseISO): basic, ordinal and week dates, a century, fractional hours", () => {
    const read = (v: string) => (scalarOf({ eventAt: v }, 'eventAt') as Date).toISOString();
    expect(read('20261201')).toBe('2026-12-01T00:00:00.000Z');
    expect(read('20261201T0430')).toBe('2026-12-01T04:30:00.000Z');
    expect(read('202611')).toBe('2026-11-01T00:00:00.000Z');
    expect(read('2026-330')).toBe('2026-11-26T00:00:00.000Z');
    expect(read('2024-366')).toBe('2024-12-31T00:00:00.000Z');
    expect(read('2026-W48')).toBe('2026-11-23T00:00:00.000Z');
    expect(read('2026-W49-2')).toBe('2026-12-01T00:00:00.000Z');
    expect(read('20')).toBe('2000-01-01T00:00:00.000Z');
    expect(read('2026-11-26T10.5')).toBe('2026-11-26T10:30:00.000Z');
    expect(read('2026-11-26T10:00+0530')).toBe('2026-11-26T04:30:00.000Z');
    expect(read('2026-11-26T24:00')).toBe('2026-11-27T00:00:00.000Z');
    for (const v of ['2023-366', '2026-W54', '2026-W48-8', '2026-11-26T24:01', '10:00', '2026-11-26T10:00:00T1']) {
      expect(plain({ eventAt: v }), v).toBe('Invalid format, expected a timestamp or an ISO date');
    }
  });

  it('epoch milliseconds, as a number or a digit string, become Dates', () => {
    expect(scalarOf({ eventAt: 1741342830000 }, 'eventAt')).toEqual(new Date(1741342830000));
    expect(scalarOf({ eventAt: '1741342830000' }, 'eventAt')).toEqual(new Date(1741342830000));
  });

  it('the timestamp type is read the same way', () => {
    expect(gadgetScalar({ seenAt: '2025-01-01T00:00:00Z' }, 'seenAt')).toEqual(new Date('2025-01-01T00:00:00Z'));
  });

  it('anything else is a plain "Invalid format, expected a timestamp or an ISO date"', () => {
    for (const v of ['yesterday', '', '2025-02-30T00:00:00Z', '2025-03-07T25:00:00Z', 'March 7, 2025', 1.5, true, {}]) {
      expect(plain({ eventAt: v }), String(v)).toBe('Invalid format, expected a timestamp or an ISO date');
    }
  });
});

describe('json and blocks', () => {
  it('json keeps any JSON value as is, a string included', () => {
    for (const v of [{ a: [1, { b: null }] }, [1, 2], 'text', 3, false]) expect(scalarOf({ metadata: v }, 'metadata')).toEqual(v);
  });

  it('blocks must be an array (a 400, where Strapi silently stores null) of nodes Strapi accepts', () => {
    const blocks = [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }];
    expect(scalarOf({ body: blocks }, 'body')).toEqual(blocks);
    expect(scalarOf({ body: [] }, 'body')).toEqual([]);
    expect(onlyFieldError({ body: 'hello' })).toEqual({ path: ['body'], message: 'body must be an array of block objects', name: 'ValidationError', value: 'hello' });
    expect(onlyFieldError({ body: ['x'] })).toEqual({ path: ['body', '0'], message: 'Block node is of invalid type', name: 'ValidationError', value: 'x' });
  });
});

describe('collecting errors', () => {
  it('several bad fields are reported together: "<n> errors occurred"', () => {
    const r = rejection({ title: 5, views: 'abc', kind: 'x', seo: { metaTitle: 1 } });
    expect(r.message).toBe('4 errors occurred');
    expect((r.details as { errors: { path: string[] }[] }).errors.map((e) => e.path)).toEqual([['title'], ['views'], ['kind'], ['seo', 'metaTitle']]);
  });

  it('field errors win over date conversion errors (Strapi converts after validating)', () => {
    const r = rejection({ publishDate: 'nope', views: 'abc' });
    expect(r.message).toBe('views must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).');
  });

  it('the first conversion error is reported when there is no field error', () => {
    expect(plain({ eventAt: 'x', publishDate: 'y' })).toBe('Invalid format, expected a timestamp or an ISO date');
  });

  it('undefined values are skipped', () => {
    expect(check({ title: 't', summary: undefined }).scalars.has('summary')).toBe(false);
  });
});
