// A single-locale read tests relation conditions against the read's locale as a constant (so the
// database can evaluate them once, not once per row). The versions reached through `localizations`
// are in other locales: their relations must still show, and match, the targets in their own locale,
// on the owning side (article → categories) and on the inverse side (category → articles).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;

const send = (method: string, path: string, data: Record<string, unknown>): Promise<string> => writeDocument(t, method, path, data);

beforeAll(async () => {
  t = await startTestApp();
  const category = await send('POST', '/api/categories', { name: 'News' });
  await send('PUT', `/api/categories/${category}?locale=fr`, { name: 'Actualités' });
  const article = await send('POST', '/api/articles', { title: 'Hello', categories: [category] });
  await send('PUT', `/api/articles/${article}?locale=fr`, { title: 'Bonjour', categories: [category] });
});
afterAll(async () => {
  await t?.close();
});

const names = (rows: { name: string }[]) => rows.map((r) => r.name);
const titles = (rows: { title: string }[]) => rows.map((r) => r.title);

describe('relations of the versions in other locales', () => {
  it('populate through localizations shows their own locale’s targets, both sides', async () => {
    const a = await t.get('/api/articles?locale=en&populate[localizations][populate][categories][fields][0]=name');
    expect(a.status, a.text).toBe(200);
    expect(names(a.body.data[0].localizations[0].categories)).toEqual(['Actualités']);
    const c = await t.get('/api/categories?locale=en&populate[localizations][populate][articles][fields][0]=title');
    expect(c.status, c.text).toBe(200);
    expect(titles(c.body.data[0].localizations[0].articles)).toEqual(['Bonjour']);
  });

  it('filters through localizations match their own locale’s targets, both sides', async () => {
    const articles = async (q: string) => titles((await t.get(`/api/articles?locale=en&${q}`)).body.data);
    expect(await articles('filters[localizations][categories][name][$eq]=Actualités')).toEqual(['Hello']);
    expect(await articles('filters[localizations][categories][name][$eq]=News')).toEqual([]);
    const categories = async (q: string) => names((await t.get(`/api/categories?locale=en&${q}`)).body.data);
    expect(await categories('filters[localizations][articles][title][$eq]=Bonjour')).toEqual(['News']);
    expect(await categories('filters[localizations][articles][title][$eq]=Hello')).toEqual([]);
  });

  it('filters through a to-many inverse in the read’s locale still match that locale only', async () => {
    const fr = async (q: string) => titles((await t.get(`/api/articles?locale=fr&${q}`)).body.data);
    expect(await fr('filters[categories][articles][title][$eq]=Bonjour')).toEqual(['Bonjour']);
    expect(await fr('filters[categories][articles][title][$eq]=Hello')).toEqual([]);
    expect(await fr('filters[categories][articles][title][$null]=true')).toEqual([]);
  });
});
