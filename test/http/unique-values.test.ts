// Unique attributes of other types than uid (uid-unique.test.ts): a datetime held to uniqueness, and
// uniqueness reported beside a body's other errors on a type without draft & publish, which Strapi
// checks in one pass. Every answer was checked on the reference Strapi 5.54 (a real project's
// `budget.eventDate` is a unique datetime; its published creates answered 500 before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDocument, type TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';
import { testClient } from '../support/database.js';

const FILES = {
  'src/api/event/content-types/event/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'events',
    info: { singularName: 'event', pluralName: 'events' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' }, at: { type: 'datetime', unique: true }, day: { type: 'date', unique: true } },
  }),
  'src/api/game/content-types/game/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'games',
    info: { singularName: 'game', pluralName: 'games' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      slug: { type: 'uid', targetField: 'name' },
      code: { type: 'string', unique: true },
      release: { type: 'date' },
      at: { type: 'datetime' },
      price: { type: 'decimal', unique: true },
      code2: { type: 'string', maxLength: 3, regex: '[A-Z]{3}' },
      mail: { type: 'email', maxLength: 12 },
    },
  }),
  'src/api/counter/content-types/counter/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'counters',
    info: { singularName: 'counter', pluralName: 'counters' },
    options: { draftAndPublish: false },
    attributes: {
      kind: { type: 'enumeration', enum: ['invoice', 'order'], unique: true },
      flag: { type: 'boolean', unique: true },
      extra: { type: 'json', unique: true },
      last: { type: 'integer' },
    },
  }),
};

let t: TestApp;
beforeAll(async () => {
  t = await startExampleWith(FILES);
});
afterAll(async () => {
  await t?.close();
});

const notUnique = (path: string, value: unknown) => ({ path: [path], message: 'This attribute must be unique', name: 'ValidationError', value });
const refused = (errors: unknown[]) => ({
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: errors.length === 1 ? (errors[0] as { message: string }).message : `${errors.length} errors occurred`,
    details: { errors },
  },
});
const badLinks = { path: ['links'], message: 'links must be a `array` type, but the final value was: `"1e3"`.' };

describe('unique values', () => {
  it('a unique datetime is published once per instant, however the instant is written; a draft may repeat it', async () => {
    const first = await t.request('POST', '/api/events', { body: { data: { title: 'one', at: '2024-01-02T03:04:05.000Z' } } });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data.at).toBe('2024-01-02T03:04:05.000Z');
    for (const at of ['2024-01-02T03:04:05.000Z', '2024-01-02T03:04:05Z', '2024-01-02T04:04:05+01:00']) {
      const again = await t.request('POST', '/api/events', { body: { data: { title: 'two', at } } });
      expect(again.status, at).toBe(400);
      expect(again.body).toEqual(refused([notUnique('at', '2024-01-02T03:04:05.000Z')]));
    }
    expect((await t.request('POST', '/api/events?status=draft', { body: { data: { title: 'draft', at: '2024-01-02T03:04:05.000Z' } } })).status).toBe(201);
    expect((await t.request('POST', '/api/events', { body: { data: { title: 'later', at: '2024-01-02T03:04:06.000Z' } } })).status).toBe(201);
  });

  it('unique holds on an enumeration, a boolean and a json too (Strapi 5.54 stores the repeat, or answers 500 from a unique column)', async () => {
    expect((await t.request('POST', '/api/counters', { body: { data: { kind: 'invoice', flag: true, extra: { a: [1] } } } })).status).toBe(201);
    const again = await t.request('POST', '/api/counters', { body: { data: { kind: 'invoice', flag: true, extra: { a: [1] }, last: 'abc' } } });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('4 errors occurred');
    expect(again.body.error.details.errors).toEqual([
      notUnique('kind', 'invoice'),
      notUnique('flag', true),
      notUnique('extra', { a: [1] }),
      expect.objectContaining({ path: ['last'], message: expect.stringContaining('must be a `number` type') }),
    ]);
    const other = await t.request('POST', '/api/counters', { body: { data: { kind: 'order', flag: false, extra: { a: [2] } } } });
    expect(other.status, other.text).toBe(201);
    expect((await t.request('GET', '/api/counters?filters[kind][$eq]=invoice')).body.data).toHaveLength(1);
  });

  it('without draft & publish, a repeated unique value is reported beside the body’s other errors, in schema order', async () => {
    await writeDocument(t, 'POST', '/api/authors', { name: 'Taken Name' });
    const r = await t.request('POST', '/api/authors', { body: { data: { links: '1e3', name: 'Taken Name' } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('2 errors occurred');
    expect(r.body.error.details.errors).toEqual([notUnique('name', 'Taken Name'), expect.objectContaining(badLinks)]);
  });

  it('without draft & publish, a unique clash is the answer rather than a date no column can hold (Strapi meets that after its checks)', async () => {
    await writeDocument(t, 'POST', '/api/games', { name: 'G', slug: 'dup-slug', code: 'c1' });
    const create = async (data: Record<string, unknown>) => (await t.request('POST', '/api/games', { body: { data } })).body;
    expect(await create({ name: 'G', slug: 'dup-slug', release: 'yesterday' })).toEqual(refused([notUnique('slug', 'dup-slug')]));
    expect(await create({ name: 'G', code: 'c1', at: 'nope' })).toEqual(refused([notUnique('code', 'c1')]));
    expect(await create({ name: 'G', code: 'c1', slug: 'dup-slug', release: 'bad' })).toEqual(refused([notUnique('slug', 'dup-slug'), notUnique('code', 'c1')]));
    const format = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid format, expected yyyy-MM-dd', details: {} } };
    expect(await create({ name: 'G', code: 'c2', release: 'bad' })).toEqual(format);
    const other = await writeDocument(t, 'POST', '/api/games', { name: 'H', code: 'c3' });
    expect((await t.request('PUT', `/api/games/${other}`, { body: { data: { code: 'c1', release: 'bad' } } })).body).toEqual(refused([notUnique('code', 'c1')]));
    expect((await t.request('PUT', `/api/games/${other}`, { body: { data: { code: 'c3', release: 'bad' } } })).body).toEqual(format);
  });

  it('without draft & publish, a text refused for its length is also held to its form rules, each failing one listed, as Strapi 5.54 lists them', async () => {
    const long = { path: ['code2'], message: 'code2 must be at most 3 characters', name: 'ValidationError', value: 'abcd' };
    const form = { path: ['code2'], message: 'code2 must match the following: "/[A-Z]{3}/"', name: 'ValidationError', value: 'abcd' };
    expect((await t.request('POST', '/api/games', { body: { data: { name: 'L', code2: 'abcd' } } })).body).toEqual(refused([long, form]));
    const mail = await t.request('POST', '/api/games', { body: { data: { name: 'M', mail: 'notanemail-toolong' } } });
    expect(mail.body.error.details.errors.map((e: { message: string }) => e.message)).toEqual(['mail must be at most 12 characters', 'mail must be a valid email']);
    const other = await writeDocument(t, 'POST', '/api/games', { name: 'N' });
    expect((await t.request('PUT', `/api/games/${other}`, { body: { data: { code2: 'abcd' } } })).body).toEqual(refused([long, form]));
  });

  it('a unique decimal is compared as its column keeps it: PostgreSQL and MySQL round to two places (5.555 is 5.56), so a second 5.555 clashes there too', async () => {
    const rounds = testClient() !== 'sqlite';
    const first = await t.request('POST', '/api/games', { body: { data: { name: 'P', price: 5.555 } } });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data.price).toBe(rounds ? 5.56 : 5.555);
    expect((await t.request('POST', '/api/games', { body: { data: { name: 'Q', price: 5.555 } } })).body).toEqual(refused([notUnique('price', 5.555)]));
    const near = await t.request('POST', '/api/games', { body: { data: { name: 'R', price: 5.5551 } } });
    if (rounds) expect(near.body).toEqual(refused([notUnique('price', 5.5551)]));
    else expect(near.status, near.text).toBe(201);
    // twenty at once: one wins
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => t.request('POST', '/api/games', { body: { data: { name: `S${i}`, price: 7.125 } } })));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it('an update is held to the other documents’ values, not its own', async () => {
    const own = await writeDocument(t, 'POST', '/api/authors', { name: 'Own Name' });
    await writeDocument(t, 'POST', '/api/authors', { name: 'Other Name' });
    const taken = await t.request('PUT', `/api/authors/${own}`, { body: { data: { name: 'Other Name', links: '1e3' } } });
    expect(taken.body.error.details.errors).toEqual([notUnique('name', 'Other Name'), expect.objectContaining(badLinks)]);
    const kept = await t.request('PUT', `/api/authors/${own}`, { body: { data: { name: 'Own Name', links: '1e3' } } });
    expect(kept.body.error.details.errors).toEqual([expect.objectContaining(badLinks)]);
  });
});
