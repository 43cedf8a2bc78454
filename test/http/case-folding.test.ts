// The case-insensitive operators fold letters as PostgreSQL's and MySQL's lower() do, on SQLite too:
// `İ` is `i` and a word-final `Σ` is `σ`, so the same filter matches the same rows on every dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  for (const name of ['İSTANBUL', 'istanbul', 'Izmir', 'ΟΔΟΣ', 'οδος']) {
    const r = await t.request('POST', '/api/authors', { body: { data: { name } } });
    if (r.status !== 201) throw new Error(r.text);
  }
});
afterAll(async () => {
  await t?.close();
});

async function names(query: string): Promise<string[]> {
  const r = await t.get(`/api/authors?fields[0]=name&sort=id&${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body.data.map((a: { name: string }) => a.name);
}

describe('case folding of the i operators', () => {
  it('takes İ for i', async () => {
    expect(await names('filters[name][$eqi]=istanbul')).toEqual(['İSTANBUL', 'istanbul']);
    expect(await names('filters[name][$eqi]=İstanbul')).toEqual(['İSTANBUL', 'istanbul']);
    expect(await names('filters[name][$startsWithi]=İ')).toEqual(['İSTANBUL', 'istanbul', 'Izmir']);
    expect(await names('filters[name][$containsi]=İst')).toEqual(['İSTANBUL', 'istanbul']);
    expect(await names('filters[name][$nei]=istanbul')).toEqual(['Izmir', 'ΟΔΟΣ', 'οδος']);
    expect(await names('filters[name][$notContainsi]=İ')).toEqual(['ΟΔΟΣ', 'οδος']);
  });

  it('takes a final Σ for σ, not for ς', async () => {
    expect(await names('filters[name][$eqi]=οδοσ')).toEqual(['ΟΔΟΣ']);
    expect(await names('filters[name][$endsWithi]=Σ')).toEqual(['ΟΔΟΣ']);
    expect(await names('filters[name][$eqi]=οδος')).toEqual(['οδος']);
  });
});
