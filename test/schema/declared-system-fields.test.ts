// A schema that writes out a system field (`"publishedAt": { "type": "datetime" }`, as 1ce-nine/anyVolt-backend
// does after its other fields, or a localized type's `locale`): Strapi 5.54 keeps it where it is declared among
// the fields it answers, and adds the ones not declared after them.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR, startTestApp, type TestApp } from '../support/app.js';
import { writeFiles } from './write-files.js';

const MOTOR = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'motors',
  info: { singularName: 'motor', pluralName: 'motors' },
  options: { draftAndPublish: true },
  attributes: {
    name: { type: 'string' },
    updatedAt: { type: 'datetime' },
    ratedPowerKw: { type: 'float' },
    publishedAt: { type: 'datetime' },
    cooling: { type: 'string' },
  },
});

const PLACE = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'places',
  info: { singularName: 'place', pluralName: 'places' },
  options: { draftAndPublish: true },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
    locale: { type: 'string' },
    createdAt: { type: 'datetime' },
    city: { type: 'string', pluginOptions: { i18n: { localized: true } } },
  },
});

let dir: string;
let t: TestApp;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-timestamps-'));
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  writeFiles(dir, { 'src/api/motor/content-types/motor/schema.json': MOTOR, 'src/api/place/content-types/place/schema.json': PLACE });
  t = await startTestApp({ dir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('declared system fields', () => {
  it('are answered where the schema declares them, the others after the fields, in every read and write', async () => {
    const order = ['id', 'documentId', 'name', 'updatedAt', 'ratedPowerKw', 'publishedAt', 'cooling', 'createdAt'];
    const made = await t.request('POST', '/api/motors', { body: { data: { name: 'm', ratedPowerKw: 1.5, cooling: 'air' } } });
    expect(made.status, made.text).toBe(201);
    expect(Object.keys(made.body.data)).toEqual(order);
    const id = made.body.data.documentId as string;
    expect(Object.keys((await t.get(`/api/motors/${id}`)).body.data)).toEqual(order);
    expect(Object.keys((await t.get('/api/motors?status=draft')).body.data[0])).toEqual(order);
    expect(Object.keys((await t.request('PUT', `/api/motors/${id}`, { body: { data: { cooling: 'oil' } } })).body.data)).toEqual(order);
    // fields names them in its own order, as before
    expect(Object.keys((await t.get('/api/motors?fields[0]=publishedAt&fields[1]=name')).body.data[0])).toEqual(['id', 'documentId', 'publishedAt', 'name']);
  });

  it("a localized type's declared locale and timestamp are answered where declared", async () => {
    const order = ['id', 'documentId', 'name', 'locale', 'createdAt', 'city', 'updatedAt', 'publishedAt'];
    const made = await t.request('POST', '/api/places', { body: { data: { name: 'n', city: 'c' } } });
    expect(made.status, made.text).toBe(201);
    expect(Object.keys(made.body.data)).toEqual(order);
    expect(Object.keys((await t.get(`/api/places/${made.body.data.documentId as string}`)).body.data)).toEqual(order);
  });

  it('a type that declares none answers its fields, then createdAt, updatedAt, publishedAt', async () => {
    const r = await t.get('/api/tags?pagination[pageSize]=1');
    expect(r.status).toBe(200);
    const made = await t.request('POST', '/api/tags', { body: { data: { label: 'x' } } });
    expect(made.status, made.text).toBe(201);
    expect(Object.keys(made.body.data).slice(-3)).toEqual(['createdAt', 'updatedAt', 'publishedAt']);
  });
});
