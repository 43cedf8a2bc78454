// A `timestamp` attribute is written as any instant (ISO text, a date, epoch milliseconds) and answered as
// epoch milliseconds in a string, as the reference Strapi 5.54 answers it; filters and sort read instants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const FILES = {
  'src/api/reading/content-types/reading/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'readings',
    info: { singularName: 'reading', pluralName: 'readings' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, ts: { type: 'timestamp' }, at: { type: 'datetime' } },
  }),
};

let t: TestApp;
beforeAll(async () => {
  t = await startExampleWith(FILES);
});
afterAll(async () => {
  await t?.close();
});

describe('timestamp attributes', () => {
  it('are answered as epoch milliseconds in a string, however they were written; a datetime stays ISO text', async () => {
    const sent = [
      { name: 'iso', ts: '2024-06-01T10:00:00.123Z', at: '2024-06-01T10:00:00.123Z' },
      { name: 'epoch', ts: 1717236000124 },
      { name: 'day', ts: '2024-06-01' },
    ];
    const answers: unknown[] = [];
    for (const data of sent) {
      const r = await t.request('POST', '/api/readings', { body: { data } });
      expect(r.status, r.text).toBe(201);
      answers.push([r.body.data.ts, r.body.data.at]);
    }
    expect(answers).toEqual([
      ['1717236000123', '2024-06-01T10:00:00.123Z'],
      ['1717236000124', null],
      ['1717200000000', null],
    ]);
    const list = await t.get('/api/readings?fields[0]=ts&sort=ts:desc&filters[ts][$gt]=2024-06-01T09:00:00Z');
    expect(list.body.data.map((d: { ts: string }) => d.ts)).toEqual(['1717236000124', '1717236000123']);
  });
});
