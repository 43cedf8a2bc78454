// A float attribute reads back as the number written, on every dialect, as the reference Strapi 5.54
// on SQLite answers it: MySQL/MariaDB's driver once read some doubles one unit off in the last place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

// each was answered one unit off in the last place on MariaDB before the fix
const SCORES = [92.34230171423405, 97.48173726256937, 91.69507015030831, 0.30000000000000004, 123456.78901234567, 1.7976931348623157e308, 5e-324];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('float values', () => {
  it('are answered as written, by a create, a read of one and a list', async () => {
    const created: number[] = [];
    for (const [i, score] of SCORES.entries()) {
      const r = await t.request('POST', '/api/articles', { body: { data: { title: `Float ${i}`, score } } });
      expect(r.status, r.text).toBe(201);
      created.push(r.body.data.score);
      const one = await t.get(`/api/articles/${r.body.data.documentId}?fields[0]=score&status=draft`);
      expect(one.body.data.score).toBe(score);
    }
    expect(created).toEqual(SCORES);
    const list = await t.get('/api/articles?fields[0]=score&sort=id&status=draft&pagination[pageSize]=100');
    expect(list.body.data.map((a: { score: number }) => a.score)).toEqual(SCORES);
  });

  it('are found by equality with the value written', async () => {
    const r = await t.get('/api/articles?fields[0]=title&status=draft&filters[score][$eq]=92.34230171423405');
    expect(r.body.data.map((a: { title: string }) => a.title)).toEqual(['Float 0']);
  });
});
